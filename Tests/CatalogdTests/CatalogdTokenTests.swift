import CatalogAPI
import CatalogKit
import CatalogdTestSupport
import ChildProcess
import Foundation
import RPCCore
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// catalogd with and without `--tokens` (CONTRACT.md §2 and §5): the token file, the refusal
/// to run open where others can reach it, the warning when open, SIGHUP reloads and the
/// access log.
@Suite("catalogd tokens and access log")
struct CatalogdTokenTests {
    static let tokens = [("alice", "reader", "reader-secret"), ("carol", "admin", "admin-secret")]

    @Test("with --tokens, a call needs a token of a role high enough; Health needs none")
    func tokensEnforced() async throws {
        let file = TestTokens.freshFilePath()
        try TestTokens.writeFile(TestTokens.fileJSON(Self.tokens), to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--tokens", file.path])
        defer { catalogd.kill() }
        #expect(catalogd.snapshot.stderr.contains("bearer tokens required"), "\(catalogd.snapshot.stderr)")
        #expect(!catalogd.snapshot.stderr.contains("serving open"), "\(catalogd.snapshot.stderr)")

        let anonymous = try await CatalogClient.connect(port: catalogd.port)
        #expect(try await anonymous.health.check() == .serving)
        let unauthenticated = try await #require(throws: RPCError.self) { try await anonymous.categories.list() }
        #expect(unauthenticated.code == .unauthenticated)
        #expect(unauthenticated.reason == "unauthenticated")
        await anonymous.close()

        let reader = try await CatalogClient.connect(port: catalogd.port, bearerToken: "reader-secret")
        #expect(try await reader.categories.list().count == 4)
        let denied = try await #require(throws: RPCError.self) { try await reader.categories.create(name: "Books") }
        #expect(denied.code == .permissionDenied)
        #expect(denied.details["requiredRole"] == .string("admin"))
        await reader.close()

        let admin = try await CatalogClient.connect(port: catalogd.port, bearerToken: "admin-secret")
        #expect(try await admin.categories.create(name: "Books").name == "Books")
        await admin.close()
    }

    /// A token file catalogd cannot use, and what its error must say after the file's name.
    struct BadTokenFile: Sendable, CustomTestStringConvertible {
        /// The file's contents; `nil`: no file at all.
        var contents: String?
        var problem: String
        var testDescription: String { problem }
    }

    static let badTokenFiles = [
        BadTokenFile(contents: nil, problem: "cannot read it: No such file or directory"),
        BadTokenFile(contents: #"{"tokens": [{"name": "ci""#, problem: "it is not valid JSON"),
        BadTokenFile(
            contents: #"{"tokens": [{"name": "ci", "role": "admin", "sha256": "abc123"}]}"#,
            problem: "tokens[0] ('ci'): sha256 must be 64 hex digits (the SHA-256 of the token), got 6 characters"),
        BadTokenFile(
            contents: #"{"tokens": [{"name": "ci", "role": "owner", "sha256": "\#(TestTokens.sha256Hex("x"))"}]}"#,
            problem: "tokens[0] ('ci'): unknown role 'owner' (reader, writer or admin)"),
        BadTokenFile(
            contents: TestTokens.fileJSON([("ci", "reader", "one"), ("ci", "admin", "two")]),
            problem: "tokens[1]: the name 'ci' is already used by tokens[0]"),
    ]

    @Test("a token file it cannot use: it exits non-zero, naming the file and the problem", arguments: badTokenFiles)
    func badTokenFile(file: BadTokenFile) async throws {
        let path = TestTokens.freshFilePath()
        if let contents = file.contents { try TestTokens.writeFile(contents, to: path) }
        defer { try? FileManager.default.removeItem(at: path) }
        let exit = try await CatalogdProcess.runUntilExit(["--tokens", path.path])
        #expect(exit.status != 0 && !exit.killedBySignal, "\(exit)")
        #expect(exit.stderr.contains("token file '\(path.path)': \(file.problem)"), "\(exit)")
        #expect(!exit.stderr.contains("catalogd ready"), "\(exit)")
    }

    @Test("CATALOG_TOKENS names the token file when --tokens is absent")
    func tokensFromEnvironment() async throws {
        let path = TestTokens.freshFilePath()
        try TestTokens.writeFile("{", to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let exit = try await CatalogdProcess.runUntilExit([], environment: ["CATALOG_TOKENS": path.path])
        #expect(exit.status != 0, "\(exit)")
        #expect(exit.stderr.contains("token file '\(path.path)': it is not valid JSON"), "\(exit)")
    }

    @Test("without tokens on loopback it serves open, and says so in its log before the ready line")
    func openOnLoopbackWarns() async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        let stderr = catalogd.snapshot.stderr
        let warning = try #require(stderr.range(of: "warning catalogd: [catalogd] no token file: serving open"), "\(stderr)")
        let ready = try #require(stderr.range(of: "catalogd ready on"))
        #expect(warning.lowerBound < ready.lowerBound)

        let client = try await CatalogClient.connect(port: catalogd.port)
        #expect(try await client.categories.list().count == 4, "open: no token needed")
        await client.close()
    }

    @Test("without tokens on an address others can reach it refuses to start, naming the way out")
    func openElsewhereRefused() async throws {
        let port = try freeLoopbackPort()
        let exit = try await CatalogdProcess.runUntilExit(["--address", "0.0.0.0:\(port)"], port: port)
        #expect(exit.status != 0 && !exit.killedBySignal, "\(exit)")
        #expect(exit.stderr.contains("refusing to serve 0.0.0.0:\(port) without tokens: it is not a loopback address"), "\(exit)")
        #expect(exit.stderr.contains("--tokens FILE") && exit.stderr.contains("--allow-open"), "\(exit)")
        #expect(!exit.stderr.contains("catalogd ready"), "\(exit)")
    }

    @Test("--allow-open or CATALOG_ALLOW_OPEN=1 lets it serve open on any address, with the warning",
          arguments: [(["--allow-open"], [String: String]()), ([], ["CATALOG_ALLOW_OPEN": "1"])])
    func allowOpen(arguments: [String], environment: [String: String]) async throws {
        let port = try freeLoopbackPort()
        let directory = try CatalogdProcess.makeDirectory()
        let catalogd = try CatalogdProcess(
            arguments: ["--address", "0.0.0.0:\(port)", "--database", directory.appendingPathComponent("catalog.sqlite").path]
                + arguments,
            environment: environment, port: port, directory: directory)
        defer { catalogd.kill() }
        let ready = try await catalogd.waitUntilReady()
        #expect(ready.stderr.contains("no token file: serving open"), "\(ready.stderr)")

        let client = try await CatalogClient.connect(port: port)
        #expect(try await client.categories.list().count == 4)
        await client.close()
        catalogd.send(SIGTERM)
        let exit = try await catalogd.waitForExit()
        #expect(exit.status == 0, "\(exit)")
    }

    @Test("SIGHUP reads the token file again; a file it cannot use is logged and the previous tokens stay")
    func reloadOnHangup() async throws {
        let file = TestTokens.freshFilePath()
        try TestTokens.writeFile(TestTokens.fileJSON([("old", "admin", "old-secret")]), to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--tokens", file.path])
        defer { catalogd.kill() }
        #expect(try await Self.statsCode(port: catalogd.port, token: "old-secret") == .ok)

        try TestTokens.writeFile(TestTokens.fileJSON([("new", "reader", "new-secret")]), to: file)
        catalogd.send(SIGHUP)
        _ = try await catalogd.wait(timeout: .seconds(20), for: "the reload") { $0.stderr.contains("reloaded the token file") }
        #expect(try await Self.statsCode(port: catalogd.port, token: "old-secret") == .unauthenticated)
        #expect(try await Self.statsCode(port: catalogd.port, token: "new-secret") == .ok)

        try TestTokens.writeFile(#"{"tokens": []}"#, to: file)
        catalogd.send(SIGHUP)
        let refused = try await catalogd.wait(timeout: .seconds(20), for: "the refused reload") {
            $0.stderr.contains("kept the previous tokens")
        }
        #expect(refused.stderr.contains("kept the previous tokens: token file '\(file.path)': it lists no tokens"), "\(refused.stderr)")
        #expect(try await Self.statsCode(port: catalogd.port, token: "new-secret") == .ok)

        catalogd.send(SIGTERM)
        let exit = try await catalogd.waitForExit()
        #expect(exit.status == 0, "\(exit)")
    }

    @Test("--access-log writes one line per call with method, status and token name, and never the token")
    func accessLog() async throws {
        let file = TestTokens.freshFilePath()
        try TestTokens.writeFile(TestTokens.fileJSON(Self.tokens), to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--tokens", file.path, "--access-log"])
        defer { catalogd.kill() }
        #expect(try await Self.statsCode(port: catalogd.port, token: "reader-secret") == .ok)
        #expect(try await Self.statsCode(port: catalogd.port, token: "wrong-secret") == .unauthenticated)
        catalogd.send(SIGTERM)
        let exit = try await catalogd.waitForExit()

        let calls = exit.stderr.split(separator: "\n").filter { $0.hasSuffix("] call") && $0.contains("method=/catalog.v1.Categories/Stats") }
        try #require(calls.count == 2, "\(exit)")
        #expect(calls[0].contains("status=OK") && calls[0].contains("caller=alice"), "\(calls[0])")
        #expect(calls[1].contains("status=UNAUTHENTICATED") && !calls[1].contains("caller="), "\(calls[1])")
        #expect(calls.allSatisfy { $0.contains("duration_ms=") && $0.contains("peer=") })
        for secret in ["reader-secret", "wrong-secret", TestTokens.sha256Hex("reader-secret")] {
            #expect(!exit.stderr.contains(secret), "\(exit)")
        }
    }

    // MARK: Helpers

    /// The status of a Categories/Stats call made with `token`.
    static func statsCode(port: Int, token: String) async throws -> StatusCode {
        let client = try await CatalogClient.connect(port: port, bearerToken: token)
        let code: StatusCode
        do {
            _ = try await client.categories.stats()
            code = .ok
        } catch {
            code = RPCError(mapping: error).code
        }
        await client.close()
        return code
    }
}
