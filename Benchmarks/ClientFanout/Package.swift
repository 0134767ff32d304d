// swift-tools-version:6.0
import PackageDescription

// A Filters/Watch fan-out client on CatalogClient, its Watch streams in JSON or CBOR, over
// nghttp2 (gRPC, HTTP/2) or URLSessionTransport (Connect streaming, HTTP/1.1); its own package
// so that the main build stays lean. It builds catalogd too, so that NIO is compiled once. Run
// with `Benchmarks/codec-fanout.sh` and `Benchmarks/urlsession-fanout.sh`.
let package = Package(
    name: "client-fanout-benchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "catalog", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "client-fanout",
            dependencies: [
                .product(name: "CatalogKit", package: "catalog"),
                .product(name: "RPCURLSession", package: "catalog"),
            ],
            path: "Sources"
        )
    ]
)
