import CatalogCLI
import CatalogKit
import Foundation

/// One run of a command: the console, the server and token it resolved, the options of
/// every call, and the printer of its results.
struct Session {
    let console: Console
    let settings: ConnectionSettings
    /// Options of each unary call: `--max-time` (default 30 s) as the timeout.
    let callOptions: CallOptions
    /// Options of a streaming call: a timeout only when `--max-time` gives one.
    let streamOptions: CallOptions
    let printer: OutputPrinter
    /// `--codec`, else `CATALOG_CODEC`, else JSON.
    let codec: CatalogClient.Codec

    /// Resolves the connection settings from the flags, the environment and the config file.
    ///
    /// - Throws: ``CLIFailure`` (usage) for an unusable config file, context or server.
    init(connection: ConnectionOptions, output: OutputOptions) throws(CLIFailure) {
        try self.init(connection: connection, format: output.format, headers: !output.noHeaders)
    }

    /// As ``init(connection:output:)``, for commands without the table options.
    init(connection: ConnectionOptions, format: OutputFormat?, headers: Bool = true) throws(CLIFailure) {
        let environment = ProcessInfo.processInfo.environment
        let console = Console(environment: environment)
        let configPath = ConfigFile.path(environment: environment)
        settings = try ConnectionSettings.resolve(
            serverFlag: connection.server, contextFlag: connection.context, tlsFlags: connection.tlsFlags, environment: environment,
            config: try ConfigFile.load(path: configPath), configPath: configPath)
        if let codec = connection.codec {
            self.codec = codec
        } else if let name = environment["CATALOG_CODEC"], !name.isEmpty {
            guard let codec = CatalogClient.Codec(rawValue: name) else {
                throw .usage("CATALOG_CODEC must be json or cbor, not '\(name)'")
            }
            self.codec = codec
        } else {
            codec = .json
        }
        let maxTime = connection.maxTime.map { Duration.milliseconds(Int64($0 * 1000)) }
        callOptions = CallOptions(timeout: maxTime ?? .seconds(30))
        streamOptions = CallOptions(timeout: maxTime)
        printer = OutputPrinter(
            console: console, format: OutputFormat.resolve(format, outputIsTerminal: console.outputIsTerminal),
            headers: headers)
        self.console = console
    }

    /// Whether results go to people (a table) rather than programs.
    var isHumanOutput: Bool { printer.format.isHumanReadable }

    /// Connects, runs `body` with the client, and closes the client whatever happens.
    ///
    /// - Throws: `RPCError` UNAVAILABLE when the server cannot be reached, or what `body` throws.
    func withClient<T>(_ body: (CatalogClient) async throws -> T) async throws -> T {
        var configuration = CatalogClient.Configuration.defaults
        configuration.connection.connectTimeout = min(callOptions.timeout ?? .seconds(10), .seconds(10))
        configuration.codec = codec
        let client = try await CatalogClient.connect(
            host: settings.address.host, port: settings.address.port, bearerToken: settings.token, tls: settings.tls,
            configuration: configuration)
        do {
            let result = try await body(client)
            await client.close()
            return result
        } catch {
            await client.close()
            throw error
        }
    }

    /// Category names by id for the CATEGORY column of item tables; empty (no call) when
    /// the output is not a table.
    func categoryNames(_ client: CatalogClient) async throws -> [Int64: String] {
        guard isHumanOutput else { return [:] }
        let categories = try await client.categories.list(options: callOptions)
        return Dictionary(categories.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// Writes a note for people to standard error (hints, summaries of what happened), its
    /// control characters escaped.
    func note(_ text: String) {
        console.writeError(console.errorStyle.dim(text.terminalSafe) + "\n")
    }
}
