import CatalogCLI
import CatalogKit
import Foundation

/// Shell completions that come from the config file or the server: context names, category
/// ids and names, filter ids.
///
/// Server lookups use the `--server` and `--context` already typed on the command line (else
/// the environment and the config file), give up after a second (`CATALOG_COMPLETION_TIMEOUT`
/// seconds when set, for slow links), and complete nothing when anything fails: completion
/// must never hang or print errors.
enum Completions {
    private static var timeout: Duration {
        let seconds = ProcessInfo.processInfo.environment["CATALOG_COMPLETION_TIMEOUT"].flatMap(Double.init)
        return .milliseconds(Int(((seconds ?? 1) * 1000).rounded()))
    }

    @Sendable
    static func contexts(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let environment = ProcessInfo.processInfo.environment
        let config = try? ConfigFile.load(path: ConfigFile.path(environment: environment))
        return config?.contexts.keys.sorted() ?? []
    }

    @Sendable
    static func categories(_ words: [String], _ index: Int, _ prefix: String) async -> [String] {
        await fromServer(words) { client, options in
            let categories = try await client.categories.list(options: options)
            return categories.map { String($0.id) } + categories.map(\.name)
        }
    }

    @Sendable
    static func filters(_ words: [String], _ index: Int, _ prefix: String) async -> [String] {
        await fromServer(words) { client, options in
            try await client.filters.list(options: options).map(\.filterId)
        }
    }

    private static func fromServer(
        _ words: [String],
        _ lookup: (CatalogClient, CallOptions) async throws -> [String]
    ) async -> [String] {
        let environment = ProcessInfo.processInfo.environment
        let configPath = ConfigFile.path(environment: environment)
        guard let config = try? ConfigFile.load(path: configPath),
            let settings = try? ConnectionSettings.resolve(
                serverFlag: value(of: "--server", in: words), contextFlag: value(of: "--context", in: words),
                tlsFlags: TLSFlags(
                    tls: words.contains("--tls"), caFile: value(of: "--cacert", in: words),
                    certificate: value(of: "--cert", in: words), key: value(of: "--key", in: words),
                    insecure: words.contains("--insecure")),
                environment: environment, config: config, configPath: configPath)
        else { return [] }
        let timeout = self.timeout
        var configuration = CatalogClient.Configuration.defaults
        configuration.connection.connectTimeout = timeout
        configuration.retry = .none
        guard
            let client = try? await CatalogClient.connect(
                host: settings.address.host, port: settings.address.port, bearerToken: settings.token, tls: settings.tls,
                configuration: configuration)
        else { return [] }
        let values = try? await lookup(client, CallOptions(timeout: timeout))
        await client.close()
        // A value with a control character (a line break would even split it in two) is no
        // word to complete, and must not reach the terminal.
        return (values ?? []).filter { !$0.containsControlCharacters }
    }

    /// The value given to `option` among the words typed so far (`--server x` or `--server=x`).
    private static func value(of option: String, in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == option, index + 1 < words.count { return words[index + 1] }
            if word.hasPrefix(option + "=") { return String(word.dropFirst(option.count + 1)) }
        }
        return nil
    }
}
