import CatalogAPI
import CatalogTestSupport
import CatalogdTestSupport
import ChildProcess
import Foundation
import RPCCore
import RPCHTTP2
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// catalogd's Watch limits per connection and per caller, and Watch streams whose token a
/// SIGHUP took away.
@Suite("catalogd Watch limits and token withdrawal")
struct CatalogdWatchLimitsTests {
    static let categories = WatchFilterRequest(filterId: "categories")

    /// Call options with `authorization: Bearer <token>`.
    static func bearer(_ token: String) -> CallOptions {
        var options = CallOptions()
        options.metadata.add("authorization", "Bearer \(token)")
        return options
    }

    /// Opens a Watch on `client` and reads its snapshot and synced events.
    static func watch(_ client: RPCClient, options: CallOptions = .defaults) async throws -> ResponseStream<FilterEvent> {
        let stream = try await client.serverStreaming(FiltersService.watch, categories, options: options)
        var events = stream.makeAsyncIterator()
        #expect(try await events.next()?.kind == .snapshot)
        #expect(try await events.next()?.kind == .synced)
        return stream
    }

    /// The error a Watch on `client` ends with before its first event.
    static func refusal(_ client: RPCClient) async throws -> RPCError {
        let stream = try await client.serverStreaming(FiltersService.watch, categories)
        var events = stream.makeAsyncIterator()
        return try await #require(throws: RPCError.self) { _ = try await events.next() }
    }

    /// How the token file changes under an open Watch of alice's.
    enum Withdrawal: String, CaseIterable, CustomTestStringConvertible {
        /// alice is no longer in the file.
        case removed
        /// alice is still in the file, with another secret.
        case rotated
        var testDescription: String { rawValue }
    }

    @Test(
        "after SIGHUP an open Watch whose token was withdrawn ends UNAUTHENTICATED; a Watch whose token stayed goes on",
        .timeLimit(.minutes(2)), arguments: Withdrawal.allCases)
    func hangupEndsWithdrawnWatches(withdrawal: Withdrawal) async throws {
        let file = TestTokens.freshFilePath()
        try TestTokens.writeFile(TestTokens.fileJSON([("alice", "reader", "reader-secret"), ("carol", "admin", "admin-secret")]), to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--tokens", file.path])
        defer { catalogd.kill() }
        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: catalogd.port, configuration: .catalog)
        let client = RPCClient(transport: connection)
        let alice = try await Self.watch(client, options: Self.bearer("reader-secret"))
        let carol = try await Self.watch(client, options: Self.bearer("admin-secret"))

        let remaining = withdrawal == .removed ? [] : [("alice", "reader", "another-secret")]
        try TestTokens.writeFile(TestTokens.fileJSON(remaining + [("carol", "admin", "admin-secret")]), to: file)
        catalogd.send(SIGHUP)

        var aliceEvents = alice.makeAsyncIterator()
        let ended = try await #require(throws: RPCError.self) { while try await aliceEvents.next() != nil {} }
        #expect(ended.code == .unauthenticated)
        #expect(ended.detail?.reason == "unauthenticated")
        let reloaded = try await catalogd.wait(timeout: .seconds(20), for: "the reload") { $0.stderr.contains("reloaded the token file") }
        #expect(reloaded.stderr.contains("watches_ended=1"), "\(reloaded.stderr)")

        _ = try await client.unary(CategoriesService.create, CreateCategoryRequest(name: "Books"), options: Self.bearer("admin-secret"))
        var carolEvents = carol.makeAsyncIterator()
        #expect(try await carolEvents.next()?.kind == .change)
        carol.cancel()
        await connection.close()
    }

    @Test(
        "--max-watch-subscribers-per-connection and -per-caller refuse past them, naming the limit; a vanished client's slots come back",
        .timeLimit(.minutes(3)))
    func perConnectionAndPerCallerFlags() async throws {
        let metricsPort = try freeLoopbackPort()
        let catalogd = try await CatalogdProcess.start(extraArguments: [
            "--max-watch-subscribers-per-connection", "10", "--max-watch-subscribers-per-caller", "20",
            "--metrics-address", "127.0.0.1:\(metricsPort)",
        ])
        defer { catalogd.kill() }
        let directory = try #require(Bundle.module.url(forResource: "Python", withExtension: nil))
        // Another client on 127.0.0.1, the same caller: 10 Watches, until it is killed.
        let vanishing = try PythonProcess(
            scriptURL: directory.appendingPathComponent("vanishing_watchers.py"),
            arguments: ["--target", "127.0.0.1:\(catalogd.port)", "--channels", "10"])
        let line = try await vanishing.readLine(timeout: .seconds(60))
        try #require(line == "watching", "\(vanishing.standardError)")

        let first = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: catalogd.port, configuration: .catalog)
        var watches: [ResponseStream<FilterEvent>] = []
        for _ in 0..<10 { watches.append(try await Self.watch(RPCClient(transport: first))) }
        let connectionFull = try await Self.refusal(RPCClient(transport: first))
        #expect(connectionFull.code == .resourceExhausted)
        #expect(connectionFull.message == "too many Watch subscribers on this connection (per-connection limit 10)")
        #expect(connectionFull.detail?.details?["scope"] == .string("connection"))
        let second = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: catalogd.port, configuration: .catalog)
        let callerFull = try await Self.refusal(RPCClient(transport: second))
        #expect(callerFull.code == .resourceExhausted)
        #expect(callerFull.message == "too many Watch subscribers from 127.0.0.1 (per-caller limit 20)")
        #expect(callerFull.detail?.details?["scope"] == .string("caller"))

        await vanishing.stop()
        try await eventually("a scrape with 10 Watch subscribers") {
            try MetricsScrape.fetch(port: metricsPort).samples["catalog_watch_subscribers"] == 10
        }
        // The vanished client's slots are the caller's again.
        for _ in 0..<10 { watches.append(try await Self.watch(RPCClient(transport: second))) }
        let third = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: catalogd.port, configuration: .catalog)
        #expect(try await Self.refusal(RPCClient(transport: third)).detail?.details?["scope"] == .string("caller"))
        for watch in watches { watch.cancel() }
        for connection in [first, second, third] { await connection.close() }
    }
}
