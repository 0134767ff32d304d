// swift-tools-version:6.0
import PackageDescription

// Times JSONCodec against CBORCodec (and Foundation's JSONEncoder) on the hot responses; its
// own package so that the main build stays lean. Run with `Benchmarks/codecs.sh`.
let package = Package(
    name: "codec-benchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "catalog", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "codec-benchmark",
            dependencies: [
                .product(name: "RPCCore", package: "catalog"),
                .product(name: "CatalogAPI", package: "catalog"),
            ],
            path: "Sources"
        )
    ]
)
