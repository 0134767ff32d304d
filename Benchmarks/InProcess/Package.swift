// swift-tools-version:6.0
import PackageDescription

// Times a CatalogClient call through the InProcessTransport (CatalogTesting) against the same
// call to a catalogd on loopback through nghttp2; its own package so that the main build stays
// lean. Run with `Benchmarks/in-process.sh`.
let package = Package(
    name: "in-process-benchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "catalog", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "in-process-benchmark",
            dependencies: [
                .product(name: "CatalogKit", package: "catalog"),
                .product(name: "CatalogTesting", package: "catalog"),
            ],
            path: "Sources"
        )
    ]
)
