import CatalogKit
import Testing

/// CatalogKit built without the catalog package's `ClientTLS` trait: cleartext HTTP/2 works,
/// and TLS fails with UNAVAILABLE saying why, whatever listens at the other end.
@Suite("CatalogKit without the ClientTLS trait")
struct CleartextClientTests {
    @Test("a cleartext connection is made")
    func cleartext() async throws {
        let listener = try LoopbackListener()
        let catalog = try await CatalogClient.connect(host: "127.0.0.1", port: listener.port)
        #expect(catalog.connectionState == .ready)
        await catalog.close()
    }

    @Test("a TLS connection fails with UNAVAILABLE: this build has no TLS")
    func tlsRefused() async throws {
        let listener = try LoopbackListener()
        let error = await #expect(throws: RPCError.self) {
            try await CatalogClient.connect(host: "127.0.0.1", port: listener.port, tls: ClientTLS(insecure: true))
        }
        #expect(error?.code == .unavailable)
        #expect(error?.message.contains("this build has no TLS (the package's ClientTLS trait is off)") == true)
    }
}
