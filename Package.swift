// swift-tools-version:6.1
import Foundation
import PackageDescription

// Where CatalogKit has its HTTP/2 connections (RPCHTTP2Client: libnghttp2 and SwiftNIO's POSIX
// sockets). `CATALOGKIT_WITHOUT_HTTP2=1` leaves them out on Linux as well, so that
// scripts/check-client-builds.sh builds CatalogKit as it builds for iOS.
let http2ClientPlatforms: [Platform] =
    ProcessInfo.processInfo.environment["CATALOGKIT_WITHOUT_HTTP2"] == nil ? [.linux, .macOS] : [.macOS]

let package = Package(
    name: "catalog",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "RPCCore", targets: ["RPCCore"]),
        // The server, and the client's connections through RPCHTTP2Client.
        .library(name: "RPCHTTP2", targets: ["RPCHTTP2"]),
        // A ClientTransport whose calls a router in the same process answers, through the
        // server's call layer: no socket, no NIO.
        .library(name: "RPCInProcess", targets: ["RPCInProcess"]),
        // The client's HTTP/2 connections alone: no server code, no ServiceLifecycle.
        .library(name: "RPCHTTP2Client", targets: ["RPCHTTP2Client"]),
        // Spans of calls on both sides through swift-distributed-tracing.
        .library(name: "RPCTracing", targets: ["RPCTracing"]),
        // A ClientTransport over URLSession speaking Connect: no C library, no NIO (Apple platforms).
        .library(name: "RPCURLSession", targets: ["RPCURLSession"]),
        .library(name: "CatalogAPI", targets: ["CatalogAPI"]),
        .library(name: "CatalogKit", targets: ["CatalogKit"]),
        // Observable view models of a filter and of the categories, for apps (MVVM).
        .library(name: "CatalogViewModels", targets: ["CatalogViewModels"]),
        // CatalogClient's real services in the test's own process, for tests of app code.
        .library(name: "CatalogTesting", targets: ["CatalogTesting"]),
        .executable(name: "catalogd", targets: ["catalogd"]),
        .executable(name: "catalog", targets: ["catalog"]),
        // For the libFuzzer package in Fuzz/ only.
        .library(name: "FuzzTargets", targets: ["FuzzTargets"]),
    ],
    traits: [
        // TLS for the client's connections (NIOSSL, which builds BoringSSL). A package whose
        // client connects over cleartext only leaves it out: `.package(..., traits: [])`.
        // The server always has TLS.
        .trait(name: "ClientTLS", description: "TLS for CatalogKit's and RPCHTTP2Client's connections (NIOSSL)."),
        .default(enabledTraits: ["ClientTLS"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // `swift package generate-documentation` (scripts/docs.sh); a plugin, not built by `swift build`.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CNGHTTP2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "RPCCore"
        ),
        // Length-prefixed messages, their compression, and the request and response bodies of
        // a call, for the client and the server alike; no NIO, no HTTP.
        .target(
            name: "RPCFraming",
            dependencies: [
                "RPCCore",
                "CZlib",
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The server's call layer, under every front end (HTTP/2, HTTP/1.1, in-process):
        // admission, budgets, deadlines, execution, streaming, metrics and the access log; no NIO.
        .target(
            name: "RPCCallLayer",
            dependencies: [
                "RPCCore",
                "RPCFraming",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // The in-process front end of the call layer: a client transport whose calls a router
        // in the same process answers, as a server would; no NIO.
        .target(
            name: "RPCInProcess",
            dependencies: [
                "RPCCore",
                "RPCFraming",
                "RPCCallLayer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // What both ends of an HTTP/2 connection share: the nghttp2 session and its header blocks.
        .target(
            name: "RPCHTTP2Core",
            dependencies: [
                "RPCCore",
                "RPCFraming",
                "CNGHTTP2",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // Certificate files and TLS failures in words, for the client and the server.
        .target(
            name: "RPCHTTP2TLS",
            dependencies: [
                "RPCHTTP2Core",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "RPCHTTP2Client",
            dependencies: [
                "RPCCore",
                "RPCFraming",
                "RPCHTTP2Core",
                .target(name: "RPCHTTP2TLS", condition: .when(traits: ["ClientTLS"])),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["ClientTLS"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["ClientTLS"])),
            ]
        ),
        .target(
            name: "RPCHTTP2",
            dependencies: [
                "RPCCore",
                "RPCFraming",
                "RPCCallLayer",
                "RPCHTTP2Core",
                "RPCHTTP2Client",
                "RPCHTTP2TLS",
                "CNGHTTP2",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "RPCURLSession",
            dependencies: ["RPCCore"]
        ),
        .target(
            name: "RPCTracing",
            dependencies: [
                "RPCCore",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "CatalogAPI",
            dependencies: ["RPCCore"],
            exclude: ["Wire"]
        ),
        // Writes CatalogAPI's messages from their descriptions (Sources/CatalogAPI/Wire):
        // `swift run wiregen`.
        .target(name: "WireGen"),
        .executableTarget(name: "wiregen", dependencies: ["WireGen"]),
        .target(
            name: "CatalogStore",
            dependencies: ["CatalogAPI"]
        ),
        .target(
            name: "CatalogServices",
            dependencies: [
                "CatalogStore",
                "RPCCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .target(
            name: "CatalogStoreSQLite",
            dependencies: [
                "CatalogStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "CatalogStorePostgres",
            dependencies: [
                "CatalogStore", "RPCCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The web console's files, written into the target at build time by the plugin below.
        .target(
            name: "CatalogConsole",
            plugins: ["EmbedConsoleFiles"]
        ),
        .plugin(
            name: "EmbedConsoleFiles",
            capability: .buildTool(),
            dependencies: ["embed-files"]
        ),
        .executableTarget(name: "embed-files"),
        .target(
            name: "CatalogServer",
            dependencies: [
                "CatalogConsole",
                "CatalogServices",
                "RPCHTTP2",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "catalogd",
            dependencies: [
                "CatalogAPI",
                "CatalogServer",
                "CatalogServices",
                "CatalogStore",
                "CatalogStorePostgres",
                "CatalogStoreSQLite",
                "RPCHTTP2",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "CatalogKit",
            dependencies: [
                // The HTTP/2 connections of `CatalogClient.connect`, where libnghttp2 and
                // SwiftNIO's POSIX sockets are; elsewhere (iOS) a client takes a transport,
                // such as RPCURLSession's.
                .target(name: "RPCHTTP2Client", condition: .when(platforms: http2ClientPlatforms)),
                "RPCCore", "CatalogAPI",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            path: "Clients/CatalogKit"
        ),
        .target(
            name: "CatalogViewModels",
            dependencies: ["CatalogKit"],
            path: "Clients/CatalogViewModels"
        ),
        .target(
            name: "CatalogTesting",
            dependencies: ["CatalogKit", "CatalogServices", "CatalogStore", "CatalogStoreSQLite", "RPCCore", "RPCInProcess"]
        ),
        .target(
            name: "CatalogCLI",
            dependencies: ["CatalogKit", "RPCCore"],
            path: "Clients/CatalogCLI"
        ),
        .executableTarget(
            name: "catalog",
            dependencies: [
                "CatalogCLI",
                "CatalogKit",
                "RPCCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Clients/catalog"
        ),
        .target(
            name: "CChildProcess",
            path: "Tests/CChildProcess"
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "RPCCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport"
        ),
        // Serving over real sockets for a test, and a clock the transport's rate limits read.
        .target(
            name: "HTTP2TestSupport",
            dependencies: [
                "TestSupport",
                "RPCHTTP2",
                "RPCCallLayer",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Tests/HTTP2TestSupport"
        ),
        .target(
            name: "ServerFrameworkNames",
            path: "Tests/ServerFrameworkNames"
        ),
        // What the services' own tests share with the end-to-end tests; no transport in it.
        .target(
            name: "CatalogServicesTestSupport",
            dependencies: ["TestSupport", "CatalogServices"],
            path: "Tests/CatalogServicesTestSupport"
        ),
        .target(
            name: "CatalogTestSupport",
            dependencies: [
                "HTTP2TestSupport",
                "TestSupport",
                "CatalogServicesTestSupport",
                "CatalogAPI",
                "CatalogServer",
                "CatalogServices",
                "CatalogStore",
                "CatalogStoreSQLite",
                "RPCCore",
                "RPCHTTP2",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/CatalogTestSupport"
        ),
        // The Swift examples of the README, docs/ and the client's DocC catalog, compiled so
        // that none stops building (PackageGraphTests checks that each is here verbatim).
        .target(
            name: "DocumentationExamples",
            dependencies: [
                "CatalogKit", "CatalogViewModels", "CatalogTesting", "CatalogAPI", "RPCCore", "RPCHTTP2", "RPCInProcess", "RPCURLSession",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/DocumentationExamples",
            exclude: ["ClientPackage"]
        ),
        .target(
            name: "FuzzTargets",
            dependencies: [
                "RPCCore",
                "RPCFraming",
                "RPCHTTP2",
                "RPCHTTP2Core",
                "CatalogAPI",
                "CatalogServices",
                "CatalogStore",
                "CatalogStoreSQLite",
                "CNGHTTP2",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/FuzzTargets"
        ),
        .target(
            name: "ChildProcess",
            dependencies: ["CChildProcess"],
            path: "Tests/ChildProcess"
        ),
        .target(
            name: "TestCertificates",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            path: "Tests/TestCertificates"
        ),
        .testTarget(
            name: "WireGenTests",
            dependencies: ["WireGen", "TestSupport"]
        ),
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: ["FuzzTargets"]
        ),
        .testTarget(
            name: "PackageGraphTests"
        ),
        .testTarget(
            name: "ChildProcessTests",
            dependencies: ["ChildProcess"]
        ),
        .testTarget(
            name: "RPCCoreTests",
            dependencies: [
                "TestSupport",
                "RPCCore",
                "CatalogAPI",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            // RFC 8949 Appendix A's examples, as the cbor/test-vectors repository lists them.
            resources: [.copy("Resources/cbor-appendix-a.json")]
        ),
        .testTarget(
            name: "RPCHTTP2Tests",
            dependencies: [
                "HTTP2TestSupport",
                "TestSupport",
                "RPCCore",
                "RPCHTTP2",
                "RPCHTTP2Client",
                "RPCHTTP2Core",
                "RPCFraming",
                "RPCCallLayer",
                "RPCInProcess",
                "RPCTracing",
                "RPCURLSession",
                "ChildProcess",
                "TestCertificates",
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            resources: [.copy("Python")]
        ),
        .testTarget(
            name: "CatalogServicesTests",
            dependencies: [
                "CatalogServicesTestSupport",
                "TestSupport",
                "CatalogAPI",
                "CatalogServices",
                "CatalogStore",
                "RPCCore",
            ]
        ),
        .testTarget(
            name: "CatalogStoreSQLiteTests",
            dependencies: [
                "CatalogAPI",
                "CatalogStore",
                "CatalogStoreSQLite",
                "StoreTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        // What any store shows through its protocols, and the checks on it, for the tests of every store.
        .target(
            name: "StoreTestSupport",
            dependencies: [
                "CatalogAPI",
                "CatalogStore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/StoreTestSupport"
        ),
        // The rules every store keeps, through the store protocols, run against each kind of store.
        .testTarget(
            name: "StoreConformanceTests",
            dependencies: [
                "CatalogAPI",
                "CatalogStore",
                "CatalogStorePostgres",
                "CatalogStoreSQLite",
                "PostgresTestSupport",
                "StoreTestSupport",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            // Databases written by the build before filter history became steps, with what that
            // build read from them (see HistoryMigrationConformanceTests).
            resources: [.copy("Resources/history-of-states")]
        ),
        // A throwaway PostgreSQL cluster per test.
        .target(
            name: "PostgresTestSupport",
            dependencies: [
                "ChildProcess",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/PostgresTestSupport"
        ),
        .testTarget(
            name: "CatalogStorePostgresTests",
            dependencies: [
                "CatalogAPI",
                "CatalogStore",
                "CatalogStorePostgres",
                "RPCCore",
                "PostgresTestSupport",
                "TestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CatalogEndToEndTests",
            dependencies: [
                "CatalogServicesTestSupport",
                "CatalogTestSupport",
                "TestSupport",
                "CatalogAPI",
                "CatalogServer",
                "CatalogServices",
                "CatalogStore",
                "CatalogStoreSQLite",
                "RPCCore",
                "RPCHTTP2",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CatalogClientTests",
            dependencies: [
                "CatalogTesting",
                "RPCInProcess",
                "ServerFrameworkNames",
                "CatalogTestSupport",
                "HTTP2TestSupport",
                "TestSupport",
                "CatalogAPI",
                "CatalogKit",
                "CatalogServer",
                "CatalogServices",
                "CatalogStore",
                "ChildProcess",
                "CatalogStoreSQLite",
                "RPCCore",
                "RPCHTTP2",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            resources: [.copy("Python")]
        ),
        // Waiting for a change of an @Observable model, on withObservationTracking.
        .target(
            name: "ObservationTestSupport",
            path: "Tests/ObservationTestSupport"
        ),
        // The view models against the real services in process (CatalogTesting), no server.
        .testTarget(
            name: "CatalogViewModelsTests",
            dependencies: ["CatalogViewModels", "CatalogTesting", "CatalogKit", "ObservationTestSupport"]
        ),
        .testTarget(
            name: "CatalogCLITests",
            dependencies: [
                "CatalogTestSupport",
                "HTTP2TestSupport",
                "TestSupport",
                "CatalogCLI",
                "ChildProcess",
                "TestCertificates",
                "CatalogKit",
                "CatalogServer",
                "CatalogStore",
                "CatalogStoreSQLite",
                "RPCCore",
                "RPCHTTP2",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // catalogd as a child process, for the tests that run it.
        .target(
            name: "CatalogdTestSupport",
            dependencies: ["ChildProcess", "TestSupport"],
            path: "Tests/CatalogdTestSupport"
        ),
        .testTarget(
            name: "CatalogdTests",
            dependencies: [
                "CatalogConsole",
                "CatalogdTestSupport",
                "CatalogTestSupport",
                "TestSupport",
                "catalogd",
                .product(name: "Prometheus", package: "swift-prometheus"),
                "ChildProcess",
                "TestCertificates",
                "RPCCore",
                "RPCHTTP2",
                "RPCURLSession",
                "CatalogAPI",
                "CatalogKit",
                "CatalogViewModels",
                "ObservationTestSupport",
            ],
            resources: [.copy("Python")]
        ),
        // Several catalogd replicas on one PostgreSQL.
        .testTarget(
            name: "ReplicaTests",
            dependencies: [
                "CatalogAPI",
                "CatalogKit",
                "CatalogdTestSupport",
                "ChildProcess",
                "PostgresTestSupport",
                "TestSupport",
                "catalogd",
            ]
        ),
    ]
)
