// swift-tools-version:6.0
import PackageDescription

// Times JSONCodec's encoder against Foundation's JSONEncoder on the hot responses; its own
// package so that the main build stays lean. Run with `Benchmarks/json-encoding.sh`.
let package = Package(
    name: "json-encoding-benchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "catalog", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "json-encoding-benchmark",
            dependencies: [
                .product(name: "RPCCore", package: "catalog"),
                .product(name: "CatalogAPI", package: "catalog"),
            ],
            path: "Sources"
        )
    ]
)
