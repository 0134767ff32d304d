import Foundation
import PostgresNIO

/// Where a PostgreSQL catalog lives, read from the URL given to `--database`:
/// `postgresql://user[:password]@host[:port]/dbname` (or `postgres://…`), with a query
/// parameter `host=/directory` for a Unix socket in that directory (libpq's convention: the
/// socket is `.s.PGSQL.<port>` there). The password comes from the URL, else from
/// `PGPASSWORD`; the user from the URL, else `PGUSER`, else the user running the process; the
/// database from the URL's path, else the user's name.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// How the server is reached.
    public enum Endpoint: Sendable, Hashable {
        case tcp(host: String, port: Int)
        /// The socket file's path.
        case unixSocket(path: String)
    }

    public var endpoint: Endpoint
    public var username: String
    public var password: String?
    public var database: String

    /// The location as a URL without the password, for logs.
    public var description: String {
        switch endpoint {
        case .tcp(let host, let port): "postgresql://\(username)@\(host):\(port)/\(database)"
        case .unixSocket(let path): "postgresql://\(username)@/\(database) (socket \(path))"
        }
    }

    /// Whether `text` names a PostgreSQL database rather than an SQLite file.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Reads `text`; `environment` supplies `PGPASSWORD`, `PGUSER` and `USER`.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostgresURLError) {
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw PostgresURLError(url: text, problem: "it is not a postgresql:// URL")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw PostgresURLError(url: text, problem: "port \(port) is out of range") }
        var socketDirectory: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "host":
                guard let value = item.value, value.hasPrefix("/") else {
                    throw PostgresURLError(url: text, problem: "the host parameter must be a socket directory (an absolute path)")
                }
                socketDirectory = value
            default:
                throw PostgresURLError(url: text, problem: "the parameter '\(item.name)' is not supported (only host=/socket/directory)")
            }
        }
        if let socketDirectory {
            let directory = socketDirectory.hasSuffix("/") ? String(socketDirectory.dropLast()) : socketDirectory
            endpoint = .unixSocket(path: "\(directory)/.s.PGSQL.\(port)")
        } else {
            guard let host = components.host, !host.isEmpty else {
                throw PostgresURLError(url: text, problem: "it names no host (give one, or host=/socket/directory)")
            }
            endpoint = .tcp(host: host, port: port)
        }
        guard let username = Self.nonEmpty(components.user) ?? Self.nonEmpty(environment["PGUSER"]) ?? Self.nonEmpty(environment["USER"])
        else { throw PostgresURLError(url: text, problem: "it names no user, and neither PGUSER nor USER is set") }
        self.username = username
        password = Self.nonEmpty(components.password) ?? Self.nonEmpty(environment["PGPASSWORD"])
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw PostgresURLError(url: text, problem: "the database name '\(path)' holds a '/'") }
        database = Self.nonEmpty(path) ?? username
    }

    /// A single connection's configuration (the listener's), like the pool's.
    var connectionConfiguration: PostgresConnection.Configuration {
        switch endpoint {
        case .tcp(let host, let port):
            PostgresConnection.Configuration(
                host: host, port: port, username: username, password: password, database: database, tls: .disable)
        case .unixSocket(let path):
            PostgresConnection.Configuration(unixSocketPath: path, username: username, password: password, database: database)
        }
    }

    /// The pool's configuration: no TLS (a URL has no way to ask for it here).
    var clientConfiguration: PostgresClient.Configuration {
        switch endpoint {
        case .tcp(let host, let port):
            PostgresClient.Configuration(
                host: host, port: port, username: username, password: password, database: database, tls: .disable)
        case .unixSocket(let path):
            PostgresClient.Configuration(unixSocketPath: path, username: username, password: password, database: database)
        }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}

/// A `--database` URL that does not name a PostgreSQL database this store can reach.
public struct PostgresURLError: Error, Hashable, CustomStringConvertible {
    /// The URL, without its password.
    public let url: String
    public let problem: String

    init(url: String, problem: String) {
        self.url = Self.withoutPassword(url)
        self.problem = problem
    }

    public var description: String { "database URL '\(url)': \(problem)" }

    /// `url` with the password, if any, replaced by `***`: error messages end up in logs.
    static func withoutPassword(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}
