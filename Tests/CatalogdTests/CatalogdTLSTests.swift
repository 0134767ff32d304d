import CatalogAPI
import CatalogKit
import CatalogdTestSupport
import ChildProcess
import Foundation
import RPCCore
import RPCHTTP2
import TestCertificates
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// catalogd with `--tls-cert`, `--tls-key` and `--tls-client-ca` (CONTRACT.md §1 and §5),
/// with a CA made by the test: TLS and mutual TLS, start-up failures, SIGHUP reloads.
@Suite("catalogd TLS")
struct CatalogdTLSTests {
    @Test("with --tls-cert and --tls-key it says TLS when ready and serves a client that trusts its CA")
    func servesTLS() async throws {
        let pki = try TestPKI()
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--tls-cert", pki.serverCertificate, "--tls-key", pki.serverKey])
        defer { catalogd.kill() }
        #expect(catalogd.snapshot.readyLines.first?.hasSuffix("catalogd ready on 127.0.0.1:\(catalogd.port) (TLS)") == true,
                "\(catalogd.snapshot.stderr)")

        let catalog = try await CatalogClient.connect(port: catalogd.port, tls: ClientTLS(caFile: pki.caFile))
        #expect(try await catalog.health.check() == .serving)
        #expect(try await catalog.categories.list().count == 4)
        await catalog.close()

        let cleartext = try await CatalogClient.connect(port: catalogd.port)
        let error = try await #require(throws: RPCError.self) { try await cleartext.health.check() }
        #expect(error.code == .unavailable)
        #expect(error.message.contains("the server answered with TLS"), "\(error.message)")
        await cleartext.close()

        catalogd.send(SIGTERM)
        let exit = try await catalogd.waitForExit()
        #expect(exit.status == 0, "\(exit)")
    }

    @Test("CATALOG_TLS_CERT, CATALOG_TLS_KEY and CATALOG_TLS_CLIENT_CA: a client certificate of the CA is required")
    func mutualTLSFromEnvironment() async throws {
        let pki = try TestPKI()
        let port = try freeLoopbackPort()
        let directory = try CatalogdProcess.makeDirectory()
        let catalogd = try CatalogdProcess(
            arguments: ["--address", "127.0.0.1:\(port)", "--database", directory.appendingPathComponent("catalog.sqlite").path],
            environment: ["CATALOG_TLS_CERT": pki.serverCertificate, "CATALOG_TLS_KEY": pki.serverKey, "CATALOG_TLS_CLIENT_CA": pki.caFile],
            port: port, directory: directory)
        defer { catalogd.kill() }
        let ready = try await catalogd.waitUntilReady()
        #expect(ready.readyLines.first?.hasSuffix("(TLS, client certificates required)") == true, "\(ready.stderr)")

        let client = CertificateFiles(certificateChain: pki.clientCertificate, privateKey: pki.clientKey)
        #expect(try await Self.healthCheck(port: port, tls: ClientTLS(caFile: pki.caFile, clientCertificate: client)) == .serving)
        let error = try await #require(throws: RPCError.self) {
            try await Self.healthCheck(port: port, tls: ClientTLS(caFile: pki.caFile))
        }
        #expect(error.code == .unavailable)
        #expect(error.message.contains("the server requires a client certificate"), "\(error.message)")
    }

    @Test(
        "a certificate or key it cannot use: it exits non-zero, naming the file and the problem",
        arguments: ["missing", "mismatched", "half"])
    func badCertificate(problem: String) async throws {
        let pki = try TestPKI()
        let other = try TestPKI(name: "Other CA")
        let missing = pki.directory.appendingPathComponent("missing.pem").path
        let (arguments, message): ([String], String) =
            switch problem {
            case "missing":
                (["--tls-cert", missing, "--tls-key", pki.serverKey], "cannot serve TLS: TLS file '\(missing)': cannot read it")
            case "mismatched":
                (["--tls-cert", pki.serverCertificate, "--tls-key", other.serverKey],
                 "cannot serve TLS: TLS file '\(other.serverKey)': it is not the private key of the certificate")
            default:
                (["--tls-cert", pki.serverCertificate], "--tls-cert and --tls-key go together")
            }
        let exit = try await CatalogdProcess.runUntilExit(arguments)
        #expect(exit.status != 0 && !exit.killedBySignal, "\(exit)")
        #expect(exit.stderr.contains(message), "\(exit)")
        #expect(!exit.stderr.contains("catalogd ready"), "\(exit)")
    }

    @Test("SIGHUP reads the certificate again: open connections keep working, new ones get the new one; a bad file keeps the old")
    func reloadOnHangup() async throws {
        let old = try TestPKI(name: "Old CA")
        let new = try TestPKI(name: "New CA")
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--tls-cert", old.serverCertificate, "--tls-key", old.serverKey])
        defer { catalogd.kill() }
        let opened = try await HTTP2ClientConnection.connect(
            host: "127.0.0.1", port: catalogd.port, configuration: .tls(ClientTLS(caFile: old.caFile)))
        let openedClient = RPCClient(transport: opened)
        #expect(try await openedClient.unary(Health.check, HealthCheckRequest()).status == .serving)

        try old.write(String(contentsOfFile: new.serverCertificate, encoding: .utf8), to: "server.pem")
        try old.write(String(contentsOfFile: new.serverKey, encoding: .utf8), to: "server.key")
        catalogd.send(SIGHUP)
        _ = try await catalogd.wait(timeout: .seconds(20), for: "the reload") { $0.stderr.contains("reloaded the TLS certificate") }

        #expect(try await openedClient.unary(Health.check, HealthCheckRequest()).status == .serving, "the open connection was kept")
        #expect(try await Self.healthCheck(port: catalogd.port, tls: ClientTLS(caFile: new.caFile)) == .serving, "new connections get the new certificate")
        let refused = try await #require(throws: RPCError.self) {
            try await Self.healthCheck(port: catalogd.port, tls: ClientTLS(caFile: old.caFile))
        }
        #expect(refused.message.contains("the server's certificate is not trusted"), "\(refused.message)")

        try old.write("not a certificate", to: "server.pem")
        catalogd.send(SIGHUP)
        let kept = try await catalogd.wait(timeout: .seconds(20), for: "the refused reload") {
            $0.stderr.contains("kept the previous TLS certificate")
        }
        #expect(kept.stderr.contains("kept the previous TLS certificate: TLS file '\(old.serverCertificate)'"), "\(kept.stderr)")
        #expect(try await Self.healthCheck(port: catalogd.port, tls: ClientTLS(caFile: new.caFile)) == .serving, "the new certificate stayed")
        #expect(try await openedClient.unary(Health.check, HealthCheckRequest()).status == .serving)
        await opened.close()

        catalogd.send(SIGTERM)
        let exit = try await catalogd.waitForExit()
        #expect(exit.status == 0, "\(exit)")
    }

    /// A health check over a new connection with `tls`, closed afterwards.
    private static func healthCheck(port: Int, tls: ClientTLS) async throws -> ServingStatus {
        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: .tls(tls))
        do {
            let response = try await RPCClient(transport: connection).unary(Health.check, HealthCheckRequest())
            await connection.close()
            return response.status
        } catch {
            await connection.close()
            throw error
        }
    }
}

extension HTTP2ClientConfiguration {
    /// The defaults with `tls`.
    static func tls(_ tls: ClientTLS) -> HTTP2ClientConfiguration {
        var configuration = HTTP2ClientConfiguration.defaults
        configuration.tls = tls
        return configuration
    }
}
