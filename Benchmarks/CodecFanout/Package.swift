// swift-tools-version:6.0
import PackageDescription

// A Filters/Watch fan-out client speaking JSON or CBOR through CatalogClient; its own package so
// that the main build stays lean. It builds catalogd too, so that NIO is compiled once. Run
// with `Benchmarks/codec-fanout.sh`.
let package = Package(
    name: "codec-fanout-benchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "catalog", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "codec-fanout",
            dependencies: [
                .product(name: "CatalogKit", package: "catalog")
            ],
            path: "Sources"
        )
    ]
)
