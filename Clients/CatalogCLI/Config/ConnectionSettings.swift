import CatalogKit
import Foundation

/// Which server to call, with which token and which TLS settings, from the flags, the
/// environment and the config file.
///
/// Precedence, first found wins:
/// - server: `--server`; the server of the context named by `--context`; `CATALOG_SERVER`;
///   the server of the config file's `current` context; `127.0.0.1:50051`.
/// - token (never a flag): the token of the context named by `--context` (and only it, so
///   that a token meant for one server never goes to another); `CATALOG_TOKEN`; the token of
///   the `current` context.
/// - each TLS setting, as the server: the flag (`--tls`, `--cacert`, `--cert`, `--key`,
///   `--insecure`); the named context's field (`tls`, `cacert`, `cert`, `key`, `insecure`);
///   the environment (`CATALOG_TLS`, `CATALOG_CACERT`, `CATALOG_CERT`, `CATALOG_KEY`,
///   `CATALOG_INSECURE`; on with `1`, `true` or `yes`); the current context's field.
///
/// TLS is used when the server is written `https://…` or any TLS setting is found; without
/// `cacert` the system's CAs are trusted. A context's relative paths are relative to the
/// config file's directory.
///
/// A context named on the command line is a flag, so it wins over the environment; the
/// `current` context of the file is the fallback below the environment.
///
/// A context's token and TLS settings are for its own server: when the server in use comes
/// from elsewhere (`--server`, `CATALOG_SERVER`, another context) and is not the one the
/// context names, they are left out, so neither a token nor a CA meant for one server is used
/// with another. A context that names no server lends them to any.
///
/// ```swift
/// let settings = try ConnectionSettings.resolve(serverFlag: nil, contextFlag: "staging", tlsFlags: TLSFlags(),
///                                               environment: environment, config: config, configPath: path)
/// ```
package struct ConnectionSettings: Hashable, Sendable {
    package var address: ServerAddress
    package var token: String?
    /// TLS for the connection; `nil`: cleartext.
    package var tls: ClientTLS?

    package init(address: ServerAddress, token: String?, tls: ClientTLS? = nil) {
        self.address = address
        self.token = token
        self.tls = tls
    }

    /// The settings that the flags, `environment` and `config` (read from `configPath`) give.
    ///
    /// - Throws: ``CLIFailure`` (usage) for a context that the file does not have, a server
    ///   address that is not `host:port`, or a client certificate without its key.
    package static func resolve(
        serverFlag: String?,
        contextFlag: String?,
        tlsFlags: TLSFlags = TLSFlags(),
        environment: [String: String],
        config: ConfigFile,
        configPath: String
    ) throws(CLIFailure) -> ConnectionSettings {
        let namedContext = try contextFlag.map { name throws(CLIFailure) in try context(name, in: config, path: configPath) }
        let currentContext = try config.current.map { name throws(CLIFailure) in try context(name, in: config, path: configPath) }
        let environment = environment.filter { !$0.value.isEmpty }

        let serverSources: [(String?, String)] = [
            (serverFlag, "--server"),
            (namedContext?.server, "context '\(contextFlag ?? "")' in \(configPath)"),
            (environment["CATALOG_SERVER"], "CATALOG_SERVER"),
            (currentContext?.server, "context '\(config.current ?? "")' in \(configPath)"),
        ]
        var address = ServerAddress.defaultAddress
        if let (text, source) = serverSources.first(where: { $0.0 != nil }), let text {
            guard let parsed = ServerAddress(parsing: text) else {
                throw .usage("the server '\(text)' from \(source) is not HOST:PORT or https://HOST:PORT, such as 127.0.0.1:50051")
            }
            address = parsed
        }

        let named = usable(namedContext, with: address)
        let current = usable(currentContext, with: address)
        let token: String? = if let named { named.token } else { environment["CATALOG_TOKEN"] ?? current?.token }

        let tls = try resolveTLS(
            flags: tlsFlags, named: named, current: current, environment: environment,
            configDirectory: URL(fileURLWithPath: configPath).deletingLastPathComponent(), serverAsksTLS: address.usesTLS)
        return ConnectionSettings(address: address, token: token, tls: tls)
    }

    /// The TLS settings, each taken from the flag, the named context, the environment or the
    /// current context, in that order; `nil` when none is set and the server is not `https://`.
    private static func resolveTLS(
        flags: TLSFlags, named: ConfigFile.Context?, current: ConfigFile.Context?, environment: [String: String],
        configDirectory: URL, serverAsksTLS: Bool
    ) throws(CLIFailure) -> ClientTLS? {
        func path(_ flag: String?, _ field: KeyPath<ConfigFile.Context, String?>, _ variable: String) -> String? {
            func inFile(_ context: ConfigFile.Context?) -> String? {
                context?[keyPath: field].map { URL(fileURLWithPath: $0, relativeTo: configDirectory).path }
            }
            return flag ?? inFile(named) ?? environment[variable] ?? inFile(current)
        }
        func isOn(_ flag: Bool, _ field: KeyPath<ConfigFile.Context, Bool?>, _ variable: String) -> Bool {
            if flag { return true }
            if let value = named?[keyPath: field] { return value }
            if let value = environment[variable] { return ["1", "true", "yes"].contains(value.lowercased()) }
            return current?[keyPath: field] ?? false
        }
        let caFile = path(flags.caFile, \.cacert, "CATALOG_CACERT")
        let insecure = isOn(flags.insecure, \.insecure, "CATALOG_INSECURE")
        let clientCertificate: CertificateFiles?
        switch (path(flags.certificate, \.cert, "CATALOG_CERT"), path(flags.key, \.key, "CATALOG_KEY")) {
        case (nil, nil):
            clientCertificate = nil
        case (let certificate?, let key?):
            clientCertificate = CertificateFiles(certificateChain: certificate, privateKey: key)
        default:
            throw .usage("a client certificate needs both --cert and --key (CATALOG_CERT and CATALOG_KEY, or a context's cert and key)")
        }
        guard serverAsksTLS || isOn(flags.tls, \.tls, "CATALOG_TLS") || caFile != nil || clientCertificate != nil || insecure else {
            return nil
        }
        return ClientTLS(caFile: caFile, clientCertificate: clientCertificate, insecure: insecure)
    }

    /// `context` when its token and TLS settings may be used with `address`: it names that
    /// server (the same host and port), or none.
    private static func usable(_ context: ConfigFile.Context?, with address: ServerAddress) -> ConfigFile.Context? {
        guard let context, let server = context.server else { return context }
        guard let own = ServerAddress(parsing: server) else { return nil }
        return own.host.lowercased() == address.host.lowercased() && own.port == address.port ? context : nil
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
