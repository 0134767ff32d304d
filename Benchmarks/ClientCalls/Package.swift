// swift-tools-version:6.0
import PackageDescription

// Client call benchmarks, each a CatalogClient's GetItem one call after another: through the
// InProcessTransport against nghttp2 on loopback (`Benchmarks/in-process.sh`), with three
// client interceptors against none (`Benchmarks/interceptors.sh`), and over URLSessionTransport
// against nghttp2 (`Benchmarks/urlsession.sh`); a client stream into a slow handler, both
// ends' memory (`Benchmarks/stream-memory.sh`); a filter action on a Session against unary
// Select (`Benchmarks/session.sh`). Their own package so that the main build stays lean.
let package = Package(
    name: "client-call-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "catalog", path: "../..")
    ],
    targets: [
        .target(
            name: "ClientCallTiming",
            dependencies: [.product(name: "CatalogKit", package: "catalog")]
        ),
        .executableTarget(
            name: "in-process-benchmark",
            dependencies: [
                "ClientCallTiming",
                .product(name: "CatalogKit", package: "catalog"),
                .product(name: "CatalogTesting", package: "catalog"),
            ]
        ),
        .executableTarget(
            name: "interceptor-benchmark",
            dependencies: [
                "ClientCallTiming",
                .product(name: "CatalogKit", package: "catalog"),
                .product(name: "CatalogTesting", package: "catalog"),
            ]
        ),
        .executableTarget(
            name: "session-benchmark",
            dependencies: ["ClientCallTiming", .product(name: "CatalogKit", package: "catalog")]
        ),
        .executableTarget(
            name: "stream-memory-benchmark",
            dependencies: [.product(name: "RPCHTTP2", package: "catalog")]
        ),
        .executableTarget(
            name: "urlsession-benchmark",
            dependencies: [
                "ClientCallTiming",
                .product(name: "CatalogKit", package: "catalog"),
                .product(name: "RPCURLSession", package: "catalog"),
            ]
        ),
    ]
)
