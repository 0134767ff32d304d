// swift-tools-version:6.0
// An app's package built on the catalog's view models: a screen of formations (training
// courses) with category chips. It is the catalog package's example, tested by
// scripts/test.sh (`swift test --package-path Examples/FormationsApp`).
import PackageDescription

let package = Package(
    name: "FormationsApp",
    // Declared for macOS, where its tests run as on Linux. On iOS, CatalogKit builds without
    // its HTTP/2 transport and an app calls the catalog over URLSessionTransport (see
    // docs/client.md); that build is checked by scripts/check-client-builds.sh, not here.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "FormationsApp", targets: ["FormationsApp"]),
    ],
    dependencies: [
        // The catalog package, two levels up. `name:` fixes the name that `package:` uses
        // below: without it, a path dependency is named after its directory, which is
        // whatever a clone or a worktree of the repository is called.
        .package(name: "catalog", path: "../.."),
    ],
    targets: [
        .target(
            name: "FormationsApp",
            dependencies: [
                .product(name: "CatalogKit", package: "catalog"),
                .product(name: "CatalogViewModels", package: "catalog"),
            ]
        ),
        .testTarget(
            name: "FormationsAppTests",
            dependencies: [
                "FormationsApp",
                .product(name: "CatalogKit", package: "catalog"),
                .product(name: "CatalogViewModels", package: "catalog"),
                .product(name: "CatalogTesting", package: "catalog"),
            ]
        ),
    ]
)
