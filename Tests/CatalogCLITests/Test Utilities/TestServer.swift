import CatalogKit
import CatalogTestSupport
import RPCHTTP2
import TestCertificates
import TestSupport

/// A real catalog server (the `CatalogServerApp` of catalogd over a fresh SQLite file) on
/// 127.0.0.1 for one test, and a client of it for the test's own setup and checks.
struct TestServer: Sendable {
    let port: Int
    let client: CatalogClient

    /// `127.0.0.1:<port>`, for `--server` and `CATALOG_SERVER`.
    var address: String { "127.0.0.1:\(port)" }
}

/// Runs a server on `port` (0: a free one) over `database` (nil: a fresh one) while `body`
/// runs, then shuts it down gracefully. With `demo`, the store holds the demo catalog (5
/// more categories, 50 French training courses) from the start. With `tls`, it serves TLS
/// with that PKI's server certificate, requiring a client certificate of its CA when
/// `clientCertificates`, and the test's client trusts that CA.
@discardableResult
func withTestServer<T>(
    demo: Bool = false,
    database: TestDatabase? = nil,
    port: Int = 0,
    tls pki: TestPKI? = nil,
    clientCertificates: Bool = false,
    _ body: (TestServer) async throws -> T
) async throws -> T {
    let serverTLS = try pki.map { pki in
        try ServerTLS(
            certificate: CertificateFiles(certificateChain: pki.serverCertificate, privateKey: pki.serverKey),
            clientCAFile: clientCertificates ? pki.caFile : nil)
    }
    return try await withCatalogServerApp(databasePath: database?.path, port: port, demo: demo, tls: serverTLS) {
        _, port in
        let clientTLS = pki.map { pki in
            ClientTLS(
                caFile: pki.caFile,
                clientCertificate: clientCertificates
                    ? CertificateFiles(certificateChain: pki.clientCertificate, privateKey: pki.clientKey) : nil)
        }
        let client = try await CatalogClient.connect(port: port, tls: clientTLS)
        do {
            let result = try await body(TestServer(port: port, client: client))
            await client.close()
            return result
        } catch {
            await client.close()
            throw error
        }
    }
}
