// swift-tools-version:6.0
import PackageDescription

// The libFuzzer target for what a peer's bytes reach first: the message deframer and the JSON
// decoding of every request of the contract (see Tests/FuzzTargets). Its own package, built
// with `-sanitize=fuzzer` by `scripts/fuzz.sh`, so that the main build stays an ordinary one.
let package = Package(
    name: "catalog-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "catalog", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "fuzz-rpc",
            dependencies: [.product(name: "FuzzTargets", package: "catalog")]
        )
    ]
)
