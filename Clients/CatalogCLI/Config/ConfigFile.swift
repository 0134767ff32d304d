import Foundation

/// The CLI's config file: named contexts, each a server, a token and TLS settings, and the
/// current one.
///
/// It is `$CATALOG_CONFIG` when set, else `$XDG_CONFIG_HOME/catalog/config.json`, else
/// `~/.config/catalog/config.json`; a missing file is an empty config. Keep it private
/// (`chmod 600`): it holds tokens. Relative file paths in it are relative to its directory.
///
/// ```json
/// {
///   "current": "local",
///   "contexts": {
///     "local": {"server": "127.0.0.1:50051"},
///     "staging": {"server": "https://catalog.staging.example", "token": "…", "cacert": "staging-ca.pem"}
///   }
/// }
/// ```
package struct ConfigFile: Codable, Hashable, Sendable {
    /// One named context.
    package struct Context: Codable, Hashable, Sendable {
        /// `host:port`, or `https://host:port` for TLS.
        package var server: String?
        /// Sent as `authorization: Bearer <token>`.
        package var token: String?
        /// Whether to use TLS (also implied by `https://` and by the other TLS fields).
        package var tls: Bool?
        /// PEM file of the CAs that may sign the server's certificate (`--cacert`).
        package var cacert: String?
        /// Client certificate (PEM) for mutual TLS (`--cert`), with `key`.
        package var cert: String?
        /// The client certificate's private key (PEM, `--key`).
        package var key: String?
        /// Skip the check of the server's certificate (`--insecure`): for tests only.
        package var insecure: Bool?

        package init(
            server: String? = nil, token: String? = nil, tls: Bool? = nil, cacert: String? = nil, cert: String? = nil,
            key: String? = nil, insecure: Bool? = nil
        ) {
            self.server = server
            self.token = token
            self.tls = tls
            self.cacert = cacert
            self.cert = cert
            self.key = key
            self.insecure = insecure
        }
    }

    /// The context used when `--context` names none.
    package var current: String?
    package var contexts: [String: Context]

    package init(current: String? = nil, contexts: [String: Context] = [:]) {
        self.current = current
        self.contexts = contexts
    }

    private enum CodingKeys: String, CodingKey { case current, contexts }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        current = try container.decodeIfPresent(String.self, forKey: .current)
        contexts = try container.decodeIfPresent([String: Context].self, forKey: .contexts) ?? [:]
    }

    /// Where the config file is for `environment`.
    package static func path(environment: [String: String]) -> String {
        if let path = environment["CATALOG_CONFIG"], !path.isEmpty { return path }
        if let base = environment["XDG_CONFIG_HOME"], !base.isEmpty { return base + "/catalog/config.json" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/catalog/config.json"
    }

    /// The config file at `path`; an empty config when there is no file.
    ///
    /// - Throws: ``CLIFailure`` (usage) when the file cannot be read or is not a config.
    package static func load(path: String) throws(CLIFailure) -> ConfigFile {
        guard FileManager.default.fileExists(atPath: path) else { return ConfigFile() }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return try JSONDecoder().decode(ConfigFile.self, from: data)
        } catch let error as DecodingError {
            throw .usage("config file \(path) is not valid: \(Self.describe(error))")
        } catch {
            throw .usage("cannot read config file \(path): \(error.localizedDescription)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "it is not a JSON object" : "'\(path)': \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
