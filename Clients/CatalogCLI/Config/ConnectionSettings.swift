/// Which server to call and with which token, from the flags, the environment and the
/// config file.
///
/// Precedence, first found wins:
/// - server: `--server`; the server of the context named by `--context`; `CATALOG_SERVER`;
///   the server of the config file's `current` context; `127.0.0.1:50051`.
/// - token (never a flag): the token of the context named by `--context` (and only it, so
///   that a token meant for one server never goes to another); `CATALOG_TOKEN`; the token of
///   the `current` context.
///
/// A context named on the command line is a flag, so it wins over the environment; the
/// `current` context of the file is the fallback below the environment.
///
/// ```swift
/// let settings = try ConnectionSettings.resolve(serverFlag: nil, contextFlag: "staging",
///                                               environment: environment, config: config, configPath: path)
/// ```
public struct ConnectionSettings: Hashable, Sendable {
    public var address: ServerAddress
    public var token: String?

    public init(address: ServerAddress, token: String?) {
        self.address = address
        self.token = token
    }

    /// The settings that the flags, `environment` and `config` (read from `configPath`) give.
    ///
    /// - Throws: ``CLIFailure`` (usage) for a context that the file does not have, or a
    ///   server address that is not `host:port`.
    public static func resolve(
        serverFlag: String?,
        contextFlag: String?,
        environment: [String: String],
        config: ConfigFile,
        configPath: String
    ) throws(CLIFailure) -> ConnectionSettings {
        let named = try contextFlag.map { name throws(CLIFailure) in try context(name, in: config, path: configPath) }
        let current = try config.current.map { name throws(CLIFailure) in try context(name, in: config, path: configPath) }

        let serverSources: [(String?, String)] = [
            (serverFlag, "--server"),
            (named?.server, "context '\(contextFlag ?? "")' in \(configPath)"),
            (environment["CATALOG_SERVER"].flatMap { $0.isEmpty ? nil : $0 }, "CATALOG_SERVER"),
            (current?.server, "context '\(config.current ?? "")' in \(configPath)"),
        ]
        var address = ServerAddress.defaultAddress
        if let (text, source) = serverSources.first(where: { $0.0 != nil }), let text {
            guard let parsed = ServerAddress(parsing: text) else {
                throw .usage("the server '\(text)' from \(source) is not HOST:PORT, such as 127.0.0.1:50051")
            }
            address = parsed
        }

        let token: String? =
            if let named { named.token } else { environment["CATALOG_TOKEN"].flatMap { $0.isEmpty ? nil : $0 } ?? current?.token }
        return ConnectionSettings(address: address, token: token)
    }

    private static func context(_ name: String, in config: ConfigFile, path: String) throws(CLIFailure) -> ConfigFile.Context {
        guard let context = config.contexts[name] else {
            let known = config.contexts.keys.sorted()
            throw .usage(
                "no context '\(name)' in \(path)"
                    + (known.isEmpty ? " (it has no contexts)" : "; its contexts are: \(known.joined(separator: ", "))"))
        }
        return context
    }
}
