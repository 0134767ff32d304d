/// A server's `host:port`, as given to `--server` or `CATALOG_SERVER`.
///
/// `host` alone means port 50051; an IPv6 address is written in brackets: `[::1]:50051`.
/// `https://host:port` asks for TLS, and `https://host` means port 443.
package struct ServerAddress: Hashable, Sendable, CustomStringConvertible {
    package var host: String
    package var port: Int
    /// Whether the address was written `https://…`.
    package var usesTLS: Bool

    /// Where `catalogd` listens by default.
    package static let defaultAddress = ServerAddress(host: "127.0.0.1", port: 50051)

    package init(host: String, port: Int, usesTLS: Bool = false) {
        self.host = host
        self.port = port
        self.usesTLS = usesTLS
    }

    /// Parses `host:port`, `host` or `[v6]:port`, each optionally after `https://` (and
    /// before one `/`); `nil` for anything else.
    package init?(parsing text: String) {
        var host = Substring(text)
        let usesTLS = host.lowercased().hasPrefix("https://")
        if usesTLS {
            host = host.dropFirst("https://".count)
            if host.hasSuffix("/") { host = host.dropLast() }
        }
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
            if host.contains(":") { return nil }
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { return nil }
        var port = usesTLS ? 443 : Self.defaultAddress.port
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else { return nil }
            port = value
        }
        self.init(host: String(host), port: port, usesTLS: usesTLS)
    }

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
