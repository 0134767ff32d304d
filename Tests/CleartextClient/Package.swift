// swift-tools-version:6.1
// A package whose client connects over cleartext only, as docs/client.md ("A client without
// TLS") shows it: it takes the catalog package without its ClientTLS trait.
// scripts/check-client-builds.sh builds and tests it, and checks which modules it compiled.
import PackageDescription

let package = Package(
    name: "CleartextClient",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "catalog", path: "../..", traits: []),
    ],
    targets: [
        .testTarget(name: "CleartextClientTests", dependencies: [.product(name: "CatalogKit", package: "catalog")]),
    ]
)
