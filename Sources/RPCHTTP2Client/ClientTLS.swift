import NIOCore
import RPCHTTP2Core

/// TLS settings of an `HTTP2ClientConnection`: the CAs to trust, the name the server's
/// certificate must carry, and a client certificate for servers that require one (mutual
/// TLS). The connection offers and requires ALPN `h2`, over TLS 1.2 or later.
///
/// ```swift
/// var configuration = HTTP2ClientConfiguration.defaults
/// configuration.tls = ClientTLS(caFile: "ca.pem")
/// let connection = try await HTTP2ClientConnection.connect(host: "localhost", port: 50051, configuration: configuration)
/// ```
public struct ClientTLS: Sendable, Hashable {
    /// PEM file of the CAs that may sign the server's certificate; `nil`: the system's trust
    /// store.
    public var caFile: String?
    /// The name the server's certificate must be valid for, also sent as SNI; `nil`: the host
    /// connected to (an IP address is then matched against the certificate's IP addresses,
    /// and no SNI is sent).
    public var serverName: String?
    /// The certificate and key presented when the server asks for one; `nil`: none.
    public var clientCertificate: CertificateFiles?
    /// Accepts any server certificate without checking it. **For tests only**: anyone on the
    /// path can then pose as the server and read and change every call.
    public var insecure: Bool

    /// TLS that checks the server's certificate against `caFile` (or the system's CAs), optionally presenting `clientCertificate`.
    public init(caFile: String? = nil, serverName: String? = nil, clientCertificate: CertificateFiles? = nil, insecure: Bool = false) {
        self.caFile = caFile
        self.serverName = serverName
        self.clientCertificate = clientCertificate
        self.insecure = insecure
    }

    /// The name to send as SNI and verify the certificate against when connecting to `host`:
    /// `serverName`, else `host` unless it is an IP address.
    func serverName(connectingTo host: String) -> String? {
        if let serverName { return serverName }
        return (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }
}
