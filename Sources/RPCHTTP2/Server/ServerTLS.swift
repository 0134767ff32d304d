import NIOSSL
import RPCHTTP2TLS
import Synchronization

/// TLS for an `HTTP2Server`: its certificate and key from PEM files, TLS 1.2 or later, ALPN
/// `h2` required; with `clientCAFile`, mutual TLS: every client must present a certificate
/// that one of those CAs signed.
///
/// `reload()` reads the files again: connections accepted afterwards get the new
/// certificate, open connections keep the one they started with.
///
/// ```swift
/// let tls = try ServerTLS(certificate: CertificateFiles(certificateChain: "server.pem", privateKey: "server.key"))
/// var configuration = HTTP2ServerConfiguration.defaults
/// configuration.tls = tls
/// let server = HTTP2Server(router: router, configuration: configuration)
/// // later, on SIGHUP:
/// try tls.reload()
/// ```
public final class ServerTLS: Sendable {
    /// The server's certificate chain and key.
    public let certificate: CertificateFiles
    /// The CAs whose certificates clients must present (PEM); `nil`: no client certificate asked.
    public let clientCAFile: String?
    private let context: Mutex<NIOSSLContext>

    /// Reads the files.
    ///
    /// - Throws: `TLSFileError` naming the file that cannot be read or used, or a key that
    ///   does not belong to the certificate.
    public init(certificate: CertificateFiles, clientCAFile: String? = nil) throws(TLSFileError) {
        self.certificate = certificate
        self.clientCAFile = clientCAFile
        self.context = Mutex(try Self.makeContext(certificate: certificate, clientCAFile: clientCAFile))
    }

    /// Reads the files again; connections accepted from now on use them. When they cannot be
    /// used, the previous credentials stay.
    ///
    /// - Throws: `TLSFileError`, as `init` does.
    public func reload() throws(TLSFileError) {
        let fresh = try Self.makeContext(certificate: certificate, clientCAFile: clientCAFile)
        context.withLock { $0 = fresh }
    }

    /// The context a newly accepted connection uses.
    var currentContext: NIOSSLContext { context.withLock { $0 } }

    private static func makeContext(certificate: CertificateFiles, clientCAFile: String?) throws(TLSFileError) -> NIOSSLContext {
        let (chain, key) = try certificate.load()
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: key)
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["h2", "http/1.1"]
        if let clientCAFile {
            configuration.trustRoots = .certificates(try PEMFile.certificates(at: clientCAFile))
            configuration.certificateVerification = .noHostnameVerification
            configuration.sendCANameList = true
        }
        return try certificate.makeContext(configuration)
    }
}

extension ServerTLS: Hashable {
    /// The same credentials object.
    public static func == (lhs: ServerTLS, rhs: ServerTLS) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
