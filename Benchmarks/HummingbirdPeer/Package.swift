// swift-tools-version:6.0
import PackageDescription

// The HTTP/1.1 peer of Benchmarks/http1-unary.sh: Hummingbird 2 answering one route with a JSON
// body from memory. A package of its own so that catalog's build never resolves Hummingbird.
let package = Package(
    name: "HummingbirdPeer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "HummingbirdPeer",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
        ),
    ]
)
