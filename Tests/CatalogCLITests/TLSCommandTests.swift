import Foundation
import TestCertificates
import Testing

/// `catalog` against a TLS server with a CA made by the test: `--cacert`, `https://`, the
/// environment and contexts, mutual TLS, and the exit statuses of every mismatch.
@Suite("catalog over TLS")
struct TLSCommandTests {
    @Test("catalog health --cacert answers SERVING; another CA's file fails with 78, saying the certificate is not trusted")
    func healthWithCACertificate() async throws {
        let pki = try TestPKI()
        let other = try TestPKI(name: "Other CA")
        try await withTestServer(tls: pki) { server in
            let sandbox = try CLISandbox()
            let trusted = try await sandbox.run(["health", "--server", server.address, "--cacert", pki.caFile])
            #expect(trusted.status == 0, "\(trusted)")
            #expect(trusted.stdout.contains("SERVING"), "\(trusted)")

            let untrusted = try await sandbox.run(["health", "--server", server.address, "--cacert", other.caFile])
            #expect(untrusted.status == 78, "\(untrusted)")
            #expect(untrusted.stderr.contains("UNAVAILABLE") && untrusted.stderr.contains("the server's certificate is not trusted"), "\(untrusted)")
        }
    }

    @Test("without TLS against a TLS server it fails with 78, saying the server answered with TLS")
    func cleartextAgainstTLS() async throws {
        try await withTestServer(tls: try TestPKI()) { server in
            let result = try await CLISandbox().run(["health", "--server", server.address])
            #expect(result.status == 78, "\(result)")
            #expect(result.stderr.contains("the server answered with TLS"), "\(result)")
        }
    }

    @Test("https:// with CATALOG_CACERT, a context's cacert relative to the config file, and --insecure all reach it")
    func otherWaysToTLS() async throws {
        let pki = try TestPKI()
        try await withTestServer(tls: pki) { server in
            let sandbox = try CLISandbox()
            let https = try await sandbox.run(
                ["health"], environment: ["CATALOG_SERVER": "https://\(server.address)", "CATALOG_CACERT": pki.caFile])
            #expect(https.status == 0, "\(https)")

            let configDirectory = URL(fileURLWithPath: sandbox.configPath).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: pki.caFile, toPath: configDirectory.appendingPathComponent("ca.pem").path)
            try sandbox.writeConfig(#"{"current": "tls", "contexts": {"tls": {"server": "\#(server.address)", "cacert": "ca.pem"}}}"#)
            let context = try await sandbox.run(["health"])
            #expect(context.status == 0, "\(context)")

            let insecure = try await CLISandbox().run(["health", "--server", server.address, "--insecure"])
            #expect(insecure.status == 0, "\(insecure)")
        }
    }

    @Test("with client certificates required, --cert and --key get in; without them it fails with 78")
    func mutualTLS() async throws {
        let pki = try TestPKI()
        try await withTestServer(tls: pki, clientCertificates: true) { server in
            let sandbox = try CLISandbox()
            let withCertificate = try await sandbox.run(
                ["health", "--server", server.address, "--cacert", pki.caFile, "--cert", pki.clientCertificate, "--key", pki.clientKey])
            #expect(withCertificate.status == 0, "\(withCertificate)")

            let without = try await sandbox.run(["health", "--server", server.address, "--cacert", pki.caFile])
            #expect(without.status == 78, "\(without)")
            #expect(without.stderr.contains("the server requires a client certificate"), "\(without)")

            let halfPair = try await sandbox.run(["health", "--server", server.address, "--cert", pki.clientCertificate])
            #expect(halfPair.status == 2, "\(halfPair)")
            #expect(halfPair.stderr.contains("needs both --cert and --key"), "\(halfPair)")
        }
    }
}
