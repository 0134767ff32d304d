// swift-tools-version:6.0
// An app's package built on the catalog's view models: a screen of formations (training
// courses) with category chips. It is the catalog package's example, tested by
// scripts/test.sh (`swift test --package-path Examples/FormationsApp`).
import PackageDescription

let package = Package(
    name: "FormationsApp",
    // macOS only: CatalogKit links libnghttp2 and SwiftNIO, which do not build for iOS (an iOS
    // app calls the catalog over URLSessionTransport, see docs/client.md).
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
