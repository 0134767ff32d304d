// swift-tools-version:6.0
import PackageDescription

// Times a CatalogClient call over URLSessionTransport (Connect over HTTP/1.1 through
// URLSession) against the same call over nghttp2, both to one catalogd on loopback; its own
// package so that the main build stays lean. Run with `Benchmarks/urlsession.sh`.
let package = Package(
    name: "urlsession-benchmark",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "catalog", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "urlsession-benchmark",
            dependencies: [
                .product(name: "CatalogKit", package: "catalog"),
                .product(name: "RPCURLSession", package: "catalog"),
            ],
            path: "Sources"
        )
    ]
)
