import ArgumentParser
import CatalogAPI
import CatalogServer
import CatalogServices
import CatalogStore
import CatalogStorePostgres
import CatalogStoreSQLite
import Foundation
import Logging
import RPCHTTP2
import ServiceLifecycle
import Synchronization
import UnixSignals

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

    @Option(
        help: ArgumentHelp(
            """
            Where the catalog lives (env CATALOG_DATABASE): an SQLite file (default catalog.sqlite), or a PostgreSQL \
            URL, postgresql://user@host:port/dbname or postgres://…, with host=/socket/dir for a Unix socket and the \
            password from PGPASSWORD or the URL. Every catalogd given the same URL is a replica of one catalog.
            """, valueName: "path-or-url"))
    var database: String?

    @Option(
        help: """
            Seconds a PostgreSQL statement may wait for its answer; past it the connection is closed and the call \
            answered UNAVAILABLE. Make it longer than the slowest statement of the catalog (a merge of large categories).
            """)
    var databaseTimeoutSeconds: Double = 10

    @Option(
        help: ArgumentHelp(
            """
            Token file (env CATALOG_TOKENS): {"tokens": [{"name", "role": reader|writer|admin, "sha256": hex SHA-256 \
            of the token}]}. Every call but Health and Reflection then needs 'authorization: Bearer <token>' of a \
            role high enough; SIGHUP reads the file again. Without it the server is open to anyone who can reach it.
            """, valueName: "file"))
    var tokens: String?

    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp(
            """
            Serve TLS (ALPN h2) with this PEM certificate chain, the server's certificate first (env \
            CATALOG_TLS_CERT); needs --tls-key. SIGHUP reads the files again for new connections.
            """, valueName: "file"))
    var tlsCert: String?

    @Option(
        name: .customLong("tls-key"),
        help: ArgumentHelp("The PEM private key of --tls-cert, unencrypted (env CATALOG_TLS_KEY).", valueName: "file"))
    var tlsKey: String?

    @Option(
        name: .customLong("tls-client-ca"),
        help: ArgumentHelp(
            "Require a client certificate signed by a CA of this PEM file (mutual TLS; env CATALOG_TLS_CLIENT_CA).",
            valueName: "file"))
    var tlsClientCA: String?

    @Flag(help: "Serve without --tokens on an address that is not loopback (env CATALOG_ALLOW_OPEN=1).")
    var allowOpen = false

    @Flag(help: "Log one line per call at info level: method, status, duration, peer, token name (env CATALOG_ACCESS_LOG=1).")
    var accessLog = false

    @Option(
        help: ArgumentHelp(
            """
            A browser origin whose pages may call by Connect or gRPC-Web (CORS), e.g. https://console.example.com; \
            repeat for several (env CATALOG_CORS_ORIGINS, comma-separated). Off by default.
            """,
            valueName: "origin"))
    var corsOrigin: [String] = []

    @Option(
        help: ArgumentHelp(
            "Serve the web console at / on the same port: on (default) or off (env CATALOG_CONSOLE).", valueName: "on|off"))
    var console: ConsoleSwitch?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(help: "Largest request message in bytes.")
    var maxMessageSize: Int = HTTP2ServerConfiguration.defaults.maxReceiveMessageSize

    @Option(help: "Concurrent streams per connection.")
    var maxConcurrentStreams: Int = HTTP2ServerConfiguration.defaults.maxConcurrentStreams

    @Option(
        help: """
            Open connections served; past it a new connection's calls are answered RESOURCE_EXHAUSTED \
            (reason tooManyConnections), then GOAWAY closes it.
            """)
    var maxConnections: Int = HTTP2ServerConfiguration.defaults.maxConnections

    @Option(help: "Open connections served from one client IP address; past it as for --max-connections.")
    var maxConnectionsPerPeer: Int = HTTP2ServerConfiguration.defaults.maxConnectionsPerPeer

    @Option(
        help: ArgumentHelp(
            """
            New calls per second on one connection, BURST at once (default RATE); a call past it is answered \
            RESOURCE_EXHAUSTED (reason callRateExceeded) and the connection stays open. 0: no limit.
            """, valueName: "rate[,burst]"))
    var maxCallRate = CallRateOption(argument: "0")!

    @Option(
        help: ArgumentHelp(
            """
            Serve Prometheus metrics (text format 0.0.4) at http://HOST:PORT/metrics over plain HTTP/1.1 \
            (env CATALOG_METRICS_ADDRESS); off by default.
            """, valueName: "host:port"))
    var metricsAddress: String?

    @Option(
        name: .customLong("max-watch-subscribers"),
        help: """
            Filters/Watch streams open at once across the server; past it a Watch is answered \
            RESOURCE_EXHAUSTED (reason tooManySubscribers, details.scope server).
            """)
    var maxWatchSubscribers: Int = FilterHub.Limits().maxSubscribers

    @Option(
        name: .customLong("max-watch-subscribers-per-connection"),
        help: "Filters/Watch streams open at once on one connection (details.scope connection).")
    var maxWatchSubscribersPerConnection: Int = FilterHub.Limits().maxSubscribersPerConnection

    @Option(
        name: .customLong("max-watch-subscribers-per-caller"),
        help: """
            Filters/Watch streams open at once for one caller: a token's name, or the client's IP \
            address without --tokens (details.scope caller). Default: a tenth of --max-watch-subscribers.
            """)
    var maxWatchSubscribersPerCaller: Int?

    @Option(help: "Largest request header list in bytes.")
    var maxHeaderListSize: Int = HTTP2ServerConfiguration.defaults.maxHeaderListSize

    @Option(
        help: """
            Bytes one connection may hold for its unfinished calls (request bytes not yet read in full, response \
            bytes its client has not taken); past it its largest calls end RESOURCE_EXHAUSTED (reason \
            bufferBudgetExceeded) and new ones are refused. More than --max-message-size.
            """)
    var maxBufferedBytesPerConnection: Int = HTTP2ServerConfiguration.defaults.maxBufferedBytesPerConnection

    @Option(help: "Bytes all connections together may hold for unfinished calls, beyond each one's first 64 KiB; as above.")
    var maxBufferedBytes: Int = HTTP2ServerConfiguration.defaults.maxBufferedBytes

    @Option(
        help: """
            Seconds a request may take to arrive in full, whatever its grpc-timeout; past it the call ends \
            DEADLINE_EXCEEDED (0: no limit).
            """)
    var requestBodyTimeoutSeconds: Double = 30

    @Option(
        help: """
            Seconds a connection may take from accept to its first complete request head (TLS handshake, \
            HTTP/2 preface and HEADERS, or HTTP/1.1 head), whatever its protocol, and each later HTTP/1.1 \
            head from its first byte; past it the connection is closed (0: no limit).
            """)
    var requestHeadTimeoutSeconds: Double = 10

    @Option(help: "Seconds response bytes may wait with none taken by the client; past it the stream is reset (0: no limit).")
    var sendStallTimeoutSeconds: Double = 30

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
        EventLoopCount.fitToAffinity()
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

        let listen = try ListenAddress(parsing: address ?? environment["CATALOG_ADDRESS"] ?? "127.0.0.1:50051")
        let (host, port) = (listen.host, listen.port)
        guard maxConnections >= 1, maxConnectionsPerPeer >= 1 else {
            throw ValidationError("--max-connections and --max-connections-per-peer must be at least 1")
        }
        guard maxBufferedBytesPerConnection > maxMessageSize, maxBufferedBytes >= 0 else {
            throw ValidationError("--max-buffered-bytes-per-connection must be more than --max-message-size (\(maxMessageSize))")
        }
        let requestBodyTimeout = try Self.timeout(requestBodyTimeoutSeconds, flag: "--request-body-timeout-seconds")
        let requestHeadTimeout = try Self.timeout(requestHeadTimeoutSeconds, flag: "--request-head-timeout-seconds")
        let sendStallTimeout = try Self.timeout(sendStallTimeoutSeconds, flag: "--send-stall-timeout-seconds")
        guard let statementTimeout = try Self.timeout(databaseTimeoutSeconds, flag: "--database-timeout-seconds") else {
            throw ValidationError("--database-timeout-seconds must be more than 0")
        }
        guard maxWatchSubscribers >= 1, maxWatchSubscribersPerConnection >= 1, (maxWatchSubscribersPerCaller ?? 1) >= 1 else {
            throw ValidationError(
                "--max-watch-subscribers, --max-watch-subscribers-per-connection and --max-watch-subscribers-per-caller must be at least 1")
        }
        let metricsListen = try (metricsAddress ?? environment["CATALOG_METRICS_ADDRESS"]).map(ListenAddress.init(parsing:))
        // Before the server is made: its metrics are made with the factory in force then.
        let metricsEndpoint = metricsListen.map { MetricsEndpoint(registry: PrometheusMetrics.bootstrap(), address: $0) }
        let tokensPath = tokens ?? environment["CATALOG_TOKENS"]
        let authorizer = try Self.makeAuthorizer(
            tokensPath: tokensPath, address: listen, allowOpen: allowOpen || Self.isSet(environment["CATALOG_ALLOW_OPEN"]),
            logger: logger)
        let tls = try Self.makeTLS(
            certificate: tlsCert ?? environment["CATALOG_TLS_CERT"], key: tlsKey ?? environment["CATALOG_TLS_KEY"],
            clientCA: tlsClientCA ?? environment["CATALOG_TLS_CLIENT_CA"])
        guard let serveConsole = (console ?? ConsoleSwitch(rawValue: environment["CATALOG_CONSOLE"] ?? "on")).map({ $0 == .on }) else {
            throw ValidationError("CATALOG_CONSOLE must be on or off")
        }
        /// Serves `store` until a graceful shutdown; `databaseName` names it in the logs.
        let serve = { @Sendable (store: any CatalogStore & FilterStore, databaseName: String) async throws in
            var configuration = HTTP2ServerConfiguration.defaults
            configuration.host = host
            configuration.port = port
            configuration.maxReceiveMessageSize = maxMessageSize
            configuration.maxConcurrentStreams = maxConcurrentStreams
            configuration.maxConnections = maxConnections
            configuration.maxConnectionsPerPeer = maxConnectionsPerPeer
            configuration.maxCallRate = maxCallRate.limit
            configuration.maxHeaderListSize = maxHeaderListSize
            configuration.maxBufferedBytesPerConnection = maxBufferedBytesPerConnection
            configuration.maxBufferedBytes = maxBufferedBytes
            configuration.requestBodyTimeout = requestBodyTimeout
            configuration.requestHeadTimeout = requestHeadTimeout
            configuration.sendStallTimeout = sendStallTimeout
            configuration.keepaliveInterval = keepaliveSeconds > 0 ? .seconds(keepaliveSeconds) : nil
            configuration.idleTimeout = idleTimeoutSeconds > 0 ? .seconds(idleTimeoutSeconds) : nil
            configuration.shutdownGracePeriod = .seconds(shutdownGraceSeconds)
            configuration.accessLogLevel = accessLog || Self.isSet(environment["CATALOG_ACCESS_LOG"]) ? .info : nil
            configuration.tls = tls
            let corsOrigins = corsOrigin.isEmpty ? (environment["CATALOG_CORS_ORIGINS"] ?? "").split(separator: ",").map(String.init) : corsOrigin
            configuration.corsOrigins = Set(corsOrigins.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            if serveConsole { configuration.resources = CatalogServerApp.consoleResources }

            var filterLimits = FilterHub.Limits()
            filterLimits.maxSubscribers = maxWatchSubscribers
            filterLimits.maxSubscribersPerConnection = maxWatchSubscribersPerConnection
            filterLimits.maxSubscribersPerCaller = maxWatchSubscribersPerCaller
            let app = CatalogServerApp(
                configuration: configuration, logger: logger, store: store, filterLimits: filterLimits, authorizer: authorizer)
            var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: app)]
            // First, so that it is shut down last (the group goes in reverse) and can be scraped while the server drains.
            if let metricsEndpoint { services.insert(.init(service: metricsEndpoint), at: 0) }
            let tokenFile = authorizer.flatMap { authorizer in tokensPath.map { (path: $0, authorizer: authorizer, watches: app.filters) } }
            if tokenFile != nil || tls != nil {
                let reloader = HangupReloader(
                    tokens: tokenFile, tls: tls, hangups: await UnixSignalsSequence(trapping: .sighup), logger: logger)
                services.append(.init(service: reloader, successTerminationBehavior: .ignore))
            }
            let serviceGroup = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: services,
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger
                )
            )
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await serviceGroup.run() }
                if let metricsEndpoint, let metricsListen {
                    do {
                        let bound = try await metricsEndpoint.listeningAddress
                        let metricsURL = "http://\(bound.ipAddress ?? metricsListen.host):\(bound.port ?? metricsListen.port)/metrics"
                        logger.notice("serving metrics on \(metricsURL)")
                    } catch {
                        throw StartupError(message: "cannot serve metrics on \(metricsListen.host):\(metricsListen.port): \(error)")
                    }
                }
                do {
                    let bound = try await app.listeningAddress
                    let listening = "\(bound.ipAddress ?? host):\(bound.port ?? port)"
                    // Before the ready line, so that whoever waits for that one has this too.
                    if serveConsole { logger.notice("console on \(tls == nil ? "http" : "https")://\(listening)/") }
                    logger.notice("catalogd ready on \(listening) (\(Self.transport(tls)))", metadata: ["database": "\(databaseName)"])
                } catch {
                    throw StartupError(message: "cannot listen on \(host):\(port): \(error)")
                }
                try await group.waitForAll()
            }
        }
        let databaseArgument = database ?? environment["CATALOG_DATABASE"] ?? "catalog.sqlite"
        let seedDemo = seedDemo || Self.isSet(environment["CATALOG_SEED_DEMO"])
        let seedBenchmark = try seedBenchmark.map(Self.benchmarkSeed)
        guard PostgresLocation.isURL(databaseArgument) else {
            let store: SQLiteCatalogStore
            do {
                store = try SQLiteCatalogStore(path: databaseArgument, logger: logger)
            } catch {
                throw StartupError(message: "cannot open database '\(databaseArgument)': \(error.rpcError.message)")
            }
            try await Self.seed(store, benchmark: seedBenchmark, demo: seedDemo, database: databaseArgument, logger: logger)
            return try await serve(store, databaseArgument)
        }
        let location: PostgresLocation
        do {
            location = try PostgresLocation(url: databaseArgument)
        } catch {
            throw StartupError(message: "\(error)")
        }
        let opened = Mutex(false)
        do {
            var settings = PostgresCatalogStore.Settings()
            settings.statementTimeout = statementTimeout
            try await PostgresCatalogStore.withStore(at: location, settings: settings, logger: logger) { store in
                opened.withLock { $0 = true }
                try await Self.seed(store, benchmark: seedBenchmark, demo: seedDemo, database: "\(location)", logger: logger)
                try await serve(store, "\(location)")
            }
        } catch let error as PostgresConnectError {
            throw StartupError(message: "cannot open database: \(error)")
        } catch where !opened.withLock({ $0 }) {
            let reason = (error as? CatalogError)?.rpcError.message ?? "\(error)"
            throw StartupError(message: "cannot open database '\(location)': \(reason)")
        }
    }

    /// The numbers of `--seed-benchmark CATEGORIES,ITEMS,LARGE`.
    static func benchmarkSeed(_ text: String) throws -> (categories: Int, items: Int, large: Int) {
        let numbers = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 3, let categories = numbers[0], let items = numbers[1], let large = numbers[2] else {
            throw ValidationError("--seed-benchmark must be CATEGORIES,ITEMS,LARGE, got '\(text)'")
        }
        return (categories, items, large)
    }

    /// Seeds the benchmark catalog and the demo catalog into `store` as asked.
    static func seed(
        _ store: any CatalogStore & BenchmarkSeeding, benchmark: (categories: Int, items: Int, large: Int)?, demo: Bool,
        database: String, logger: Logger
    ) async throws {
        if let benchmark {
            let clock = ContinuousClock()
            let start = clock.now
            let summary: BenchmarkSeedSummary
            do {
                summary = try await store.seedForBenchmark(
                    categories: benchmark.categories, items: benchmark.items, largeCategoryItems: benchmark.large)
            } catch {
                throw StartupError(message: "cannot seed the benchmark catalog into '\(database)': \(error.rpcError.message)")
            }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            logger.notice(
                "seeded the benchmark catalog",
                metadata: [
                    "database": "\(database)", "seconds": "\(String(format: "%.2f", seconds))",
                    "categories": "\(summary.categoryCount)", "items": "\(summary.itemCount)",
                    "largeCategoryId": "\(summary.largeCategoryID)", "middleCategoryId": "\(summary.middleCategoryID)",
                    "otherCategoryId": "\(summary.otherCategoryID)",
                ])
        }
        guard demo else { return }
        do {
            if try await DemoCatalog.seed(into: store) {
                logger.notice("seeded the demo catalog: \(DemoCatalog.itemCount) items created", metadata: ["database": "\(database)"])
            } else {
                logger.info("demo catalog not seeded: the store already holds items", metadata: ["database": "\(database)"])
            }
        } catch {
            throw StartupError(message: "cannot seed the demo catalog into '\(database)': \(error.rpcError.message)")
        }
    }

    /// The authorizer for the token file at `tokensPath`; without one, `nil` (open) after a
    /// warning, and only on a loopback address unless `allowOpen`.
    static func makeAuthorizer(tokensPath: String?, address: ListenAddress, allowOpen: Bool, logger: Logger) throws -> TokenAuthorizer? {
        guard let tokensPath else {
            guard address.isLoopback || allowOpen else {
                throw StartupError(
                    message: """
                        refusing to serve \(address.host):\(address.port) without tokens: it is not a loopback address. \
                        Give --tokens FILE (env CATALOG_TOKENS), or --allow-open (env CATALOG_ALLOW_OPEN=1) to let anyone \
                        who can reach it call every method
                        """)
            }
            logger.warning(
                "no token file: serving open, every call is allowed without a token (give --tokens FILE to require bearer tokens)")
            return nil
        }
        do {
            let tokens = try TokenFile.load(path: tokensPath)
            logger.notice("bearer tokens required", metadata: ["file": "\(tokensPath)", "tokens": "\(tokens.tokens.count)"])
            return TokenAuthorizer(tokens: tokens)
        } catch {
            throw StartupError(message: error.description)
        }
    }

    /// The TLS credentials of `--tls-cert` and `--tls-key`, and `--tls-client-ca` for mutual
    /// TLS; `nil` without them (plaintext).
    static func makeTLS(certificate: String?, key: String?, clientCA: String?) throws -> ServerTLS? {
        switch (certificate, key) {
        case (nil, nil):
            guard clientCA == nil else { throw ValidationError("--tls-client-ca needs --tls-cert and --tls-key") }
            return nil
        case (let certificate?, let key?):
            do {
                return try ServerTLS(certificate: CertificateFiles(certificateChain: certificate, privateKey: key), clientCAFile: clientCA)
            } catch {
                throw StartupError(message: "cannot serve TLS: \(error)")
            }
        default:
            throw ValidationError("--tls-cert and --tls-key go together (env CATALOG_TLS_CERT and CATALOG_TLS_KEY)")
        }
    }

    /// How clients reach the server, for the ready line.
    static func transport(_ tls: ServerTLS?) -> String {
        guard let tls else { return "plaintext" }
        return tls.clientCAFile == nil ? "TLS" : "TLS, client certificates required"
    }

    /// A timeout given in seconds: `nil` for 0 (none).
    static func timeout(_ seconds: Double, flag: String) throws -> Duration? {
        guard seconds.isFinite, seconds >= 0, seconds <= 365 * 24 * 3600 else {
            throw ValidationError("\(flag) must be 0 (none) to one year in seconds, not \(seconds)")
        }
        return seconds > 0 ? .milliseconds(Int64((seconds * 1000).rounded(.up))) : nil
    }

    /// Whether an environment flag is on: `1`, `true` or `yes`.
    static func isSet(_ value: String?) -> Bool {
        ["1", "true", "yes"].contains(value?.lowercased())
    }
}

/// A failure to start, printed by ArgumentParser as `Error: …` with exit code 1.
struct StartupError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
