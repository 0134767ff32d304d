import CatalogAPI
import CatalogTestSupport
import CatalogdTestSupport
import ChildProcess
import Foundation
import RPCCore
import RPCHTTP2
import Synchronization
import Testing

/// Hundreds of connections mixing every kind of call against one `catalogd`, in two rounds:
/// reads, writes, Watch streams cancelled after their snapshot, calls cancelled or timed out
/// in flight, connections dropped and reopened, and grpcio clients killed with their streams
/// open. Afterwards catalogd still runs and serves, the second round left the resident memory
/// where the first one did, and every write it acknowledged is in the store.
///
/// Each round lasts `CATALOG_SOAK_SECONDS` (default 40); set it higher for a longer soak.
@Suite("Soak: mixed load, cancellations and vanishing peers")
struct SoakTests {
    static let roundSeconds = ProcessInfo.processInfo.environment["CATALOG_SOAK_SECONDS"].flatMap(Int.init) ?? 40
    static let connections = 200
    /// Each lane closes its connection and opens another after this many calls.
    static let callsPerConnection = 60
    static let callOptions = CallOptions(timeout: .seconds(60))

    @Test("catalogd keeps serving, its memory stays flat and no acknowledged write is lost", .timeLimit(.minutes(30)))
    func soak() async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        let ledger = SoakLedger()

        // The first round warms up every pool and cache; the second must not add to them.
        try await Self.round(port: catalogd.port, ledger: ledger)
        let afterFirst = try residentMemoryKiB(of: catalogd.processIdentifier)
        try await Self.round(port: catalogd.port, ledger: ledger)
        let afterSecond = try residentMemoryKiB(of: catalogd.processIdentifier)

        let summary = ledger.summary
        print(
            "soak: \(summary.calls) calls on \(Self.connections) connections, \(summary.created.count) items created, "
                + "\(summary.vanishedClients) grpcio clients killed; catalogd resident \(afterFirst) KiB, then \(afterSecond) KiB")
        #expect(summary.unexpected.isEmpty, "unexpected outcomes: \(summary.unexpected)")
        #expect(summary.calls > 10 * Self.connections, "only \(summary.calls) calls were made")
        #expect(summary.vanishedClients >= 2, "\(summary.vanishedClients) grpcio clients were killed")
        #expect(catalogd.snapshot.exitStatus == nil, "catalogd exited: \(catalogd.snapshot)")
        // 16 MiB: a leak of 100 bytes a call over a round's calls, with room for SQLite's page
        // caches, which fill as the store grows.
        #expect(
            afterSecond - afterFirst < 16_384,
            "resident memory grew from \(afterFirst) KiB to \(afterSecond) KiB over \(summary.calls / 2) calls")

        let stored = try await Self.storedItems(port: catalogd.port)
        let missing = summary.created.filter { stored[$0.key] != $0.value }
        #expect(missing.isEmpty, "\(missing.count) of \(summary.created.count) acknowledged items are missing or changed")
    }

    // MARK: Load

    /// Runs `connections` lanes of mixed calls and a stream of vanishing grpcio clients until
    /// the round's time is up.
    static func round(port: Int, ledger: SoakLedger) async throws {
        let end = ContinuousClock.now.advanced(by: .seconds(roundSeconds))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<connections {
                group.addTask { try await mixedCalls(lane: lane, port: port, until: end, ledger: ledger) }
            }
            group.addTask { try await vanishingClients(port: port, until: end, ledger: ledger) }
            try await group.waitForAll()
        }
    }

    /// One lane: a connection making calls of every kind in turn, replaced every
    /// `callsPerConnection` calls.
    static func mixedCalls(lane: Int, port: Int, until end: ContinuousClock.Instant, ledger: SoakLedger) async throws {
        var step = lane
        while ContinuousClock.now < end {
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: .catalog)
            let client = RPCClient(transport: connection)
            for _ in 0..<callsPerConnection where ContinuousClock.now < end {
                step += 1
                await call(step: step, lane: lane, client: client, ledger: ledger)
            }
            await connection.close()
        }
    }

    /// One call of the kind `step` selects, its outcome checked and counted.
    static func call(step: Int, lane: Int, client: RPCClient, ledger: SoakLedger) async {
        let kind = step % 7
        do {
            switch kind {
            case 0:
                let item = try await client.unary(
                    CatalogService.createItem, CreateItemRequest(title: "soak \(lane)-\(step)"), options: callOptions)
                ledger.created(id: item.id, title: item.title)
            case 1:
                _ = try await client.unary(CatalogService.getItem, IDRequest(id: ledger.someCreatedID(step) ?? 1), options: callOptions)
            case 2:
                _ = try await client.unary(CategoriesService.list, ListCategoriesRequest(), options: callOptions)
            case 3:
                let stream = try await client.serverStreaming(
                    FiltersService.watch, WatchFilterRequest(filterId: "categories"), options: callOptions)
                var events = stream.makeAsyncIterator()
                let first = try await events.next()
                stream.cancel()
                if first?.kind != .snapshot { ledger.unexpected("Watch began with \(String(describing: first?.kind))") }
            case 4:
                // Cancelled by its task, wherever it is by then.
                let task = Task { try await client.unary(CatalogService.listItems, ListItemsRequest(pageSize: 50), options: callOptions) }
                task.cancel()
                _ = try await task.value
            case 5:
                _ = try await client.unary(
                    CatalogService.listItems, ListItemsRequest(query: "soak", pageSize: 20),
                    options: CallOptions(timeout: .milliseconds(1)))
            default:
                _ = try await client.unary(FiltersService.togglePresentation, FilterIDRequest(filterId: "categories"), options: callOptions)
            }
            ledger.count()
        } catch let error as RPCError {
            ledger.count()
            let expected: Bool = switch (kind, error.code) {
            case (1, .notFound), (4, .cancelled), (5, .deadlineExceeded): true
            default: false
            }
            if !expected { ledger.unexpected("call kind \(kind): \(error)") }
        } catch is CancellationError where kind == 4 {
            ledger.count()
        } catch {
            ledger.unexpected("call kind \(kind): \(error)")
        }
    }

    /// grpcio clients, one after another: each opens 20 channels with a Watch and a unary call
    /// in flight, and is killed (SIGKILL) once its streams are open.
    static func vanishingClients(port: Int, until end: ContinuousClock.Instant, ledger: SoakLedger) async throws {
        guard let directory = Bundle.module.url(forResource: "Python", withExtension: nil) else {
            throw PythonProcess.Failure(description: "the Python test resources are missing from the bundle")
        }
        while ContinuousClock.now < end {
            let client = try PythonProcess(
                scriptURL: directory.appendingPathComponent("vanishing_watchers.py"),
                arguments: ["--target", "127.0.0.1:\(port)", "--channels", "20"])
            let line = try? await client.readLine(timeout: .seconds(60))
            await client.stop()
            if line == "watching" {
                ledger.vanished()
            } else {
                ledger.unexpected("vanishing_watchers.py printed \(line ?? "nothing"): \(client.standardError)")
            }
        }
    }

    // MARK: Checks

    /// Every item in the store, id to title, read page by page.
    static func storedItems(port: Int) async throws -> [Int64: String] {
        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: .catalog)
        let client = RPCClient(transport: connection)
        var items: [Int64: String] = [:]
        var token: String?
        repeat {
            let page = try await client.unary(
                CatalogService.listItems, ListItemsRequest(pageSize: 500, pageToken: token), options: callOptions)
            for item in page.items { items[item.id] = item.title }
            token = page.nextPageToken
        } while token != nil
        await connection.close()
        return items
    }
}

/// What the soak's lanes did: calls made, items acknowledged, grpcio clients killed, and any
/// outcome no rule allows.
final class SoakLedger: Sendable {
    struct Summary {
        var calls = 0
        var created: [Int64: String] = [:]
        var vanishedClients = 0
        var unexpected: [String] = []
    }

    private let state = Mutex(Summary())

    var summary: Summary { state.withLock { $0 } }

    func count() { state.withLock { $0.calls += 1 } }

    func created(id: Int64, title: String) { state.withLock { $0.created[id] = title } }

    func vanished() { state.withLock { $0.vanishedClients += 1 } }

    /// Keeps the first 20, enough to diagnose.
    func unexpected(_ what: String) {
        state.withLock { if $0.unexpected.count < 20 { $0.unexpected.append(what) } }
    }

    /// An item created earlier, chosen by `seed`, if any was.
    func someCreatedID(_ seed: Int) -> Int64? {
        state.withLock { summary in
            guard !summary.created.isEmpty else { return nil }
            // Dictionary order is arbitrary but stable between mutations: good enough to spread reads.
            let index = summary.created.index(summary.created.startIndex, offsetBy: seed % min(summary.created.count, 64))
            return summary.created[index].key
        }
    }
}
