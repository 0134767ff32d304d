// swift-tools-version:6.1
// A service of its own on RPCCore and RPCHTTP2: its messages, its method, the names of its
// error details, a server and a client. The article "Your own service on RPCCore"
// (Sources/RPCCore/RPCCore.docc) walks through it; scripts/test.sh builds and tests it.
import PackageDescription

let package = Package(
    name: "Greeter",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Package.swift
        .package(name: "catalog", path: "../.."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // Package.swift
        .target(name: "Greeter", dependencies: [.product(name: "RPCCore", package: "catalog"), .product(name: "RPCHTTP2", package: "catalog")]),
        .testTarget(
            name: "GreeterTests",
            dependencies: ["Greeter", .product(name: "Logging", package: "swift-log")]
        ),
    ]
)
