// swift-tools-version:6.1
// The manifest of a package that uses the client library, as docs/client.md shows it; a test
// reads it with `swift package dump-package`. It is never built.
import PackageDescription

let package = Package(
    name: "MyApp",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Package.swift
        .package(url: "https://git.example.com/platform/catalog.git", from: "1.0.0", traits: []),
    ],
    targets: [
        // Package.swift
        .testTarget(name: "MyAppTests", dependencies: ["MyApp", .product(name: "CatalogTesting", package: "catalog")]),
        // Package.swift
        .target(name: "MyiOSApp", dependencies: [.product(name: "CatalogKit", package: "catalog"), .product(name: "RPCURLSession", package: "catalog")]),
        // Package.swift
        .target(name: "Formations", dependencies: [.product(name: "CatalogViewModels", package: "catalog")]),
        // Package.swift
        .target(name: "MyApp", dependencies: [.product(name: "CatalogKit", package: "catalog")])
    ]
)
