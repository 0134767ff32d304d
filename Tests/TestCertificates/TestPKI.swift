import Foundation

/// PEM files for TLS tests in a fresh temporary directory, removed with this value: a CA, a
/// server certificate for `localhost` and `127.0.0.1`, and a client certificate, both signed
/// by the CA.
///
/// ```swift
/// let pki = try TestPKI()
/// let tls = try ServerTLS(certificate: CertificateFiles(certificateChain: pki.serverCertificate, privateKey: pki.serverKey))
/// let client = ClientTLS(caFile: pki.caFile)
/// ```
public final class TestPKI: Sendable {
    /// The directory of the files.
    public let directory: URL
    /// The CA's certificate.
    public let caFile: String
    /// The server's certificate and key.
    public let serverCertificate: String
    public let serverKey: String
    /// A client certificate and key, for mutual TLS.
    public let clientCertificate: String
    public let clientKey: String

    /// A new CA named `name` and the files of its certificates; without `serverIPAddress` the
    /// server certificate is valid for `localhost` only, not `127.0.0.1`.
    public init(name: String = "Catalog Test CA", serverIPAddress: Bool = true) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let ca = try TestCertificateAuthority(name: name)
        let server = try ca.issue(commonName: "localhost", usage: .server(ipAddress: serverIPAddress))
        let client = try ca.issue(commonName: "test client", usage: .client)
        caFile = try Self.write(try ca.certificatePEM, to: "ca.pem", in: directory)
        serverCertificate = try Self.write(server.certificatePEM, to: "server.pem", in: directory)
        serverKey = try Self.write(server.privateKeyPEM, to: "server.key", in: directory)
        clientCertificate = try Self.write(client.certificatePEM, to: "client.pem", in: directory)
        clientKey = try Self.write(client.privateKeyPEM, to: "client.key", in: directory)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Writes `contents` to the file `name` of the directory (replacing it) and returns its path.
    @discardableResult
    public func write(_ contents: String, to name: String) throws -> String {
        try Self.write(contents, to: name, in: directory)
    }

    private static func write(_ contents: String, to name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url.path
    }
}
