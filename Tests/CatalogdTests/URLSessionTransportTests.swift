import CatalogAPI
import CatalogKit
import CatalogdTestSupport
import ChildProcess
import Foundation
import RPCCore
import RPCURLSession
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `CatalogClient` over `URLSessionTransport` (Connect over HTTP/1.1 through URLSession) against
/// a real catalogd: the same answers and errors as over nghttp2, deadlines kept by the client,
/// a Watch resumed across a restart of catalogd, and cancellation.
@Suite("URLSession transport")
struct URLSessionTransportTests {
    static let codecs: [URLSessionTransport.Codec] = [.json, .cbor]

    /// A client of the catalogd on `port` over URLSession.
    static func client(
        port: Int, codec: URLSessionTransport.Codec, bearerToken: String? = nil,
        configuration: CatalogClient.Configuration = .defaults
    ) throws -> CatalogClient {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
        return CatalogClient(transport: URLSessionTransport(baseURL: url, codec: codec, errorDetailNames: .catalog), bearerToken: bearerToken, configuration: configuration)
    }

    /// Resumes of a Watch soon after catalogd is back.
    static var quickResume: CatalogClient.Configuration {
        var configuration = CatalogClient.Configuration.defaults
        configuration.reconnectBackoff = Backoff(initial: .milliseconds(50), maximum: .milliseconds(250))
        return configuration
    }

    @Test("typed unary calls on the demo catalog answer as over nghttp2", arguments: codecs)
    func unaryAsOverHTTP2(codec: URLSessionTransport.Codec) async throws {
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--seed-demo"])
        defer { catalogd.kill() }
        let reference = try await CatalogClient.connect(port: catalogd.port)
        let client = try Self.client(port: catalogd.port, codec: codec)

        let item = try await client.items.get(id: 42)
        #expect(item == (try await reference.items.get(id: 42)))
        #expect(!item.title.isEmpty)
        let categories = try await client.categories.list()
        #expect(categories.count >= 5)
        #expect(categories == (try await reference.categories.list()))
        let full = try #require(categories.first { $0.itemCount > 3 })
        let page = try await client.items.list(categoryId: full.id, pageSize: 3)
        #expect(page.items.count == 3)
        #expect(page == (try await reference.items.list(categoryId: full.id, pageSize: 3)))
        #expect(try await client.categories.stats() == (try await reference.categories.stats()))
        #expect(try await client.filters.list() == (try await reference.filters.list()))
        #expect(try await client.health.check() == .serving)

        let created = try await client.categories.create(name: "Livres \(codec)")
        #expect(try await reference.categories.get(id: created.id) == created, "a write over URLSession is the server's")
        await reference.close()
    }

    @Test("errors carry code, message and the contract's detail as over nghttp2", arguments: codecs)
    func errorsWithDetails(codec: URLSessionTransport.Codec) async throws {
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--seed-demo"])
        defer { catalogd.kill() }
        let reference = try await CatalogClient.connect(port: catalogd.port)
        let client = try Self.client(port: catalogd.port, codec: codec)

        let notFound = try await #require(throws: RPCError.self) { try await client.items.get(id: 987_654) }
        #expect(notFound.code == .notFound)
        #expect(notFound.details["id"]?.intValue == 987_654)
        let notFoundOverHTTP2 = try await #require(throws: RPCError.self) { try await reference.items.get(id: 987_654) }
        #expect(notFound == notFoundOverHTTP2)

        let books = try await reference.categories.create(name: "Books")
        let duplicate = try await #require(throws: RPCError.self) { try await client.categories.create(name: "  books ") }
        #expect(duplicate.code == .alreadyExists)
        #expect(duplicate.reason == "duplicateName")
        #expect(duplicate.field == "name")
        #expect(duplicate.details["id"]?.intValue == Int(books.id))
        #expect(!duplicate.message.isEmpty)
        let duplicateOverHTTP2 = try await #require(throws: RPCError.self) { try await reference.categories.create(name: "  books ") }
        #expect(duplicate == duplicateOverHTTP2)

        let invalid = try await #require(throws: RPCError.self) { try await client.categories.create(name: "Red", color: "red") }
        #expect(invalid.code == .invalidArgument)
        #expect(invalid.field == "color")
        let invalidOverHTTP2 = try await #require(throws: RPCError.self) { try await reference.categories.create(name: "Red", color: "red") }
        #expect(invalid == invalidOverHTTP2)
        await reference.close()
    }

    @Test("with --tokens: UNAUTHENTICATED without a token, PERMISSION_DENIED for a role too low", arguments: codecs)
    func tokens(codec: URLSessionTransport.Codec) async throws {
        let file = TestTokens.freshFilePath()
        try TestTokens.writeFile(TestTokens.fileJSON(), to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--tokens", file.path])
        defer { catalogd.kill() }

        let anonymous = try Self.client(port: catalogd.port, codec: codec)
        #expect(try await anonymous.health.check() == .serving, "Health needs no token")
        let unauthenticated = try await #require(throws: RPCError.self) { try await anonymous.categories.list() }
        #expect(unauthenticated.code == .unauthenticated)
        #expect(unauthenticated.reason == "unauthenticated")

        let reader = try Self.client(port: catalogd.port, codec: codec, bearerToken: TestTokens.reader)
        #expect(try await reader.categories.list().count == 4)
        let denied = try await #require(throws: RPCError.self) { try await reader.categories.create(name: "Books") }
        #expect(denied.code == .permissionDenied)
        #expect(denied.details["requiredRole"] == .string("admin"))

        let admin = try Self.client(port: catalogd.port, codec: codec, bearerToken: TestTokens.admin)
        #expect(try await admin.categories.create(name: "Books").name == "Books")
    }

    @Test("a Watch given a short timeout ends with DEADLINE_EXCEEDED", arguments: codecs)
    func watchDeadline(codec: URLSessionTransport.Codec) async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        let client = try Self.client(port: catalogd.port, codec: codec)
        let start = ContinuousClock.now
        var kinds: [FilterEvent.Kind] = []
        let error = try await #require(throws: RPCError.self) {
            for try await event in client.filters.watch("categories", options: CallOptions(timeout: .milliseconds(700))) {
                kinds.append(event.kind)
            }
        }
        #expect(error.code == .deadlineExceeded, "\(error)")
        #expect(kinds.first == .snapshot, "the watch streamed before its deadline: \(kinds)")
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(700) && elapsed < .seconds(10), "\(elapsed)")
    }

    @Test("a unary call to a server that never answers fails with DEADLINE_EXCEEDED at its deadline", arguments: codecs)
    func unaryDeadlineWithSilentServer(codec: URLSessionTransport.Codec) async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let client = try Self.client(port: silent.port, codec: codec)
        let start = ContinuousClock.now
        let error = try await #require(throws: RPCError.self) {
            try await client.categories.list(options: CallOptions(timeout: .milliseconds(400)))
        }
        let elapsed = ContinuousClock.now - start
        #expect(error.code == .deadlineExceeded, "\(error)")
        #expect(elapsed >= .milliseconds(400) && elapsed < .seconds(5), "\(elapsed)")
    }

    @Test("a server that is down is UNAVAILABLE, naming the URLError")
    func serverDown() async throws {
        let client = try Self.client(port: try freeLoopbackPort(), codec: .json)
        let error = try await #require(throws: RPCError.self) { try await client.categories.create(name: "Books") }
        #expect(error.code == .unavailable, "\(error)")
        #expect(error.message.contains("URLError"), "\(error)")
    }

    @Test(
        "a Watch streams the snapshot and another client's Select, and resumes across a restart of catalogd with no gap and no duplicate",
        arguments: codecs)
    func watchAcrossRestart(codec: URLSessionTransport.Codec) async throws {
        let first = try await CatalogdProcess.start()
        var catalogd = first
        defer { catalogd.kill() }
        let client = try Self.client(port: first.port, codec: codec, configuration: Self.quickResume)
        let recorder = WatchRecorder()
        let watching = Task {
            for try await event in client.filters.watch("categories", onInterruption: { recorder.interrupted($0) }) {
                recorder.record(event)
            }
        }
        defer { watching.cancel() }

        let snapshot = try await eventually("the snapshot") { recorder.events.first { $0.kind == .snapshot } }
        let options = try #require(snapshot.state?.options)
        try #require(options.count >= 2)
        try await eventually("synced") { recorder.events.contains { $0.kind == .synced } }

        let writer = try await CatalogClient.connect(port: first.port)
        let selected = try await writer.filters.select("categories", optionId: options[0].id)
        let change = try await eventually("the Select") { recorder.events.first { $0.revision == selected.revision && $0.kind == .change } }
        #expect(change.state?.selectedId == options[0].id)
        await writer.close()

        first.send(SIGTERM)
        let exit = try await first.waitForExit()
        #expect(exit.status == 0 && !exit.killedBySignal, "\(exit)")
        try await eventually("the watch saw catalogd go") { !recorder.interruptions.isEmpty }
        let second = try CatalogdProcess(
            arguments: ["--address", "127.0.0.1:\(first.port)", "--database", first.directory.appendingPathComponent("catalog.sqlite").path],
            port: first.port,
            directory: first.directory
        )
        catalogd = second
        try await second.waitUntilReady()

        let secondWriter = try await CatalogClient.connect(port: second.port)
        let reselected = try await secondWriter.filters.select("categories", optionId: options[1].id)
        await secondWriter.close()
        let resumed = try await eventually("the Select after the restart") {
            recorder.events.first { $0.revision == reselected.revision && $0.kind == .change }
        }
        #expect(resumed.state?.selectedId == options[1].id)
        #expect(resumed.previousRevision == selected.revision, "no change between the two Selects went missing")
        let revisions = recorder.events.filter { $0.state != nil }.map(\.revision)
        #expect(revisions == revisions.sorted() && Set(revisions).count == revisions.count, "each state once, in order: \(revisions)")
        #expect(revisions.last == reselected.revision, "\(revisions)")
        #expect(recorder.interruptions.allSatisfy { $0.code == .unavailable || $0.reason == ErrorDetail.streamResetReason }, "\(recorder.interruptions)")
    }

    @Test("cancelling the task that iterates a Watch ends it promptly", arguments: codecs)
    func cancelWatch(codec: URLSessionTransport.Codec) async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        let client = try Self.client(port: catalogd.port, codec: codec)
        let recorder = WatchRecorder()
        let watching = Task {
            defer { recorder.finish() }
            for try await event in client.filters.watch("categories") { recorder.record(event) }
        }
        try await eventually("synced") { recorder.events.contains { $0.kind == .synced } }
        #expect(!recorder.finished, "a watch runs until cancelled")

        let cancelledAt = ContinuousClock.now
        watching.cancel()
        try await eventually(timeout: .seconds(5), "the watch to end") { recorder.finished }
        #expect(ContinuousClock.now - cancelledAt < .seconds(2))
        let result = await watching.result
        #expect((try? result.get()) != nil, "a cancelled watch ends without an error: \(result)")
    }
}

/// What a Watch delivered, from the task that iterates it.
private final class WatchRecorder: Sendable {
    private struct State {
        var events: [FilterEvent] = []
        var interruptions: [RPCError] = []
        var finished = false
    }

    private let state = Mutex(State())

    var events: [FilterEvent] { state.withLock { $0.events } }
    var interruptions: [RPCError] { state.withLock { $0.interruptions } }
    var finished: Bool { state.withLock { $0.finished } }

    func record(_ event: FilterEvent) { state.withLock { $0.events.append(event) } }
    func interrupted(_ error: RPCError) { state.withLock { $0.interruptions.append(error) } }
    func finish() { state.withLock { $0.finished = true } }
}

/// A TCP socket on 127.0.0.1 that listens and never accepts: the kernel completes each
/// connection and keeps what the client sends, and no answer ever comes.
private struct SilentListener {
    let port: Int
    private let descriptor: Int32

    init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw SocketError(operation: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            let error = SocketError(operation: "bind and listen", errno: errno)
            Self.close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        Self.close(descriptor)
    }

    private static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #elseif canImport(Darwin)
        _ = Darwin.close(descriptor)
        #endif
    }

    struct SocketError: Error, CustomStringConvertible {
        var operation: String
        var errno: Int32
        var description: String { "\(operation) failed on 127.0.0.1: errno \(errno)" }
    }
}
