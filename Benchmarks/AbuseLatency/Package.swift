// swift-tools-version:6.0
import PackageDescription

// Honest clients' unary latency while one attacker at a time abuses the HTTP/2 layer (rapid
// reset, PING/SETTINGS/CONTINUATION floods, oversized headers, an HPACK bomb, empty frames, a
// slow reader, connection churn); its own package so that the main build stays lean. Run with
// `Benchmarks/abuse-latency.sh`.
let package = Package(
    name: "abuse-latency-benchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "catalog", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "abuse-latency",
            dependencies: [
                .product(name: "RPCCore", package: "catalog"),
                .product(name: "RPCHTTP2", package: "catalog"),
                .product(name: "CatalogAPI", package: "catalog"),
            ],
            path: "Sources"
        )
    ]
)
