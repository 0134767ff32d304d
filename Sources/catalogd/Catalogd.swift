import ArgumentParser
import CatalogAPI
import CatalogServer
import CatalogStoreSQLite
import Foundation
import Logging
import RPCHTTP2
import ServiceLifecycle

/// `catalogd`: serves the catalog over gRPC-style HTTP/2.
@main
struct Catalogd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogd",
        abstract: "Serve the catalog over gRPC-style HTTP/2 (JSON messages, libnghttp2).",
        discussion: "Logs one line when ready; exits 0 after a graceful shutdown on SIGTERM or SIGINT."
    )

    @Option(help: "Address to listen on, HOST:PORT (env CATALOG_ADDRESS).")
    var address: String?

    @Option(help: "SQLite database path (env CATALOG_DATABASE).")
    var database: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(help: "Largest request message in bytes.")
    var maxMessageSize: Int = HTTP2ServerConfiguration.defaults.maxReceiveMessageSize

    @Option(help: "Concurrent streams per connection.")
    var maxConcurrentStreams: Int = HTTP2ServerConfiguration.defaults.maxConcurrentStreams

    @Option(help: "Open connections accepted.")
    var maxConnections: Int = HTTP2ServerConfiguration.defaults.maxConnections

    @Option(name: .customLong("max-watch-subscribers"), help: "Filters/Watch streams open at once across the server.")
    var maxWatchSubscribers: Int = FilterHub.Limits().maxSubscribers

    @Option(help: "Largest request header list in bytes.")
    var maxHeaderListSize: Int = HTTP2ServerConfiguration.defaults.maxHeaderListSize

    @Option(help: "Seconds between keepalive PINGs (0: none).")
    var keepaliveSeconds: Int = 120

    @Option(help: "Seconds after which a connection with no call is closed (0: never).")
    var idleTimeoutSeconds: Int = 300

    @Option(help: "Seconds graceful shutdown waits for in-flight calls.")
    var shutdownGraceSeconds: Int = 10

    @Flag(
        help: """
            When the catalog holds no item yet, fill it with demo data first: 5 categories and \
            \(DemoCatalog.itemCount) French training courses priced in EUR; a no-op otherwise, so safe \
            on every start (env CATALOG_SEED_DEMO=1).
            """)
    var seedDemo = false

    @Option(
        help: """
            Before serving, fill an EMPTY store (no item, only the default categories) for load tests: \
            CATEGORIES,ITEMS,LARGE (e.g. 10000,1000000,100000) makes CATEGORIES categories in all and \
            ITEMS items, LARGE of them in one category; fails when the store is not empty.
            """)
    var seedBenchmark: String?

    @Flag(help: "Print the contract document (Schema/catalog.v1.json) to standard output and exit.")
    var printSchema = false

    func run() async throws {
        if printSchema {
            FileHandle.standardOutput.write(try CatalogContract.documentJSON())
            return
        }
        let environment = ProcessInfo.processInfo.environment
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "catalogd")

        let (host, port) = try Self.parseAddress(address ?? environment["CATALOG_ADDRESS"] ?? "127.0.0.1:50051")
        let databasePath = database ?? environment["CATALOG_DATABASE"] ?? "catalog.sqlite"
        let store: SQLiteCatalogStore
        do {
            store = try SQLiteCatalogStore(path: databasePath)
        } catch {
            throw StartupError(message: "cannot open database '\(databasePath)': \(error.rpcError.message)")
        }
        if let seedBenchmark {
            let numbers = seedBenchmark.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == 3, let categories = numbers[0], let items = numbers[1], let large = numbers[2] else {
                throw ValidationError("--seed-benchmark must be CATEGORIES,ITEMS,LARGE, got '\(seedBenchmark)'")
            }
            let clock = ContinuousClock()
            let start = clock.now
            let summary: BenchmarkSeedSummary
            do {
                summary = try await store.seedForBenchmark(
                    categories: categories, items: items, largeCategoryItems: large)
            } catch {
                throw StartupError(
                    message: "cannot seed the benchmark catalog into '\(databasePath)': \(error.rpcError.message)")
            }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            logger.notice(
                "seeded the benchmark catalog",
                metadata: [
                    "database": "\(databasePath)", "seconds": "\(String(format: "%.2f", seconds))",
                    "categories": "\(summary.categoryCount)", "items": "\(summary.itemCount)",
                    "largeCategoryId": "\(summary.largeCategoryID)", "middleCategoryId": "\(summary.middleCategoryID)",
                    "otherCategoryId": "\(summary.otherCategoryID)",
                ])
        }
        if seedDemo || ["1", "true", "yes"].contains(environment["CATALOG_SEED_DEMO"]?.lowercased()) {
            do {
                if try await DemoCatalog.seed(into: store) {
                    logger.notice("seeded the demo catalog: \(DemoCatalog.itemCount) items created", metadata: ["database": "\(databasePath)"])
                } else {
                    logger.info("demo catalog not seeded: the store already holds items", metadata: ["database": "\(databasePath)"])
                }
            } catch {
                throw StartupError(message: "cannot seed the demo catalog into '\(databasePath)': \(error.rpcError.message)")
            }
        }

        var configuration = HTTP2ServerConfiguration.defaults
        configuration.host = host
        configuration.port = port
        configuration.maxReceiveMessageSize = maxMessageSize
        configuration.maxConcurrentStreams = maxConcurrentStreams
        configuration.maxConnections = maxConnections
        configuration.maxHeaderListSize = maxHeaderListSize
        configuration.keepaliveInterval = keepaliveSeconds > 0 ? .seconds(keepaliveSeconds) : nil
        configuration.idleTimeout = idleTimeoutSeconds > 0 ? .seconds(idleTimeoutSeconds) : nil
        configuration.shutdownGracePeriod = .seconds(shutdownGraceSeconds)

        var filterLimits = FilterHub.Limits()
        filterLimits.maxSubscribers = maxWatchSubscribers
        let app = CatalogServerApp(configuration: configuration, logger: logger, store: store, filterLimits: filterLimits)
        let services = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: app)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            do {
                let bound = try await app.listeningAddress
                let listening = "\(bound.ipAddress ?? host):\(bound.port ?? port)"
                logger.notice("catalogd ready on \(listening)", metadata: ["database": "\(databasePath)"])
            } catch {
                throw StartupError(message: "cannot listen on \(host):\(port): \(error)")
            }
            try await group.waitForAll()
        }
    }

    static func parseAddress(_ text: String) throws -> (String, Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else {
            throw ValidationError("address must be HOST:PORT, got '\(text)'")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "127.0.0.1" : host, port)
    }
}

/// A failure to start, printed by ArgumentParser as `Error: …` with exit code 1.
struct StartupError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
