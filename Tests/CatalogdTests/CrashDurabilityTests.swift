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

/// `catalogd` killed with SIGKILL in the middle of a stream of writes loses nothing it acknowledged.
///
/// SQLite in WAL mode (GRDB's default `synchronous=NORMAL`) survives a process crash, which is
/// what SIGKILL is; a power loss is out of scope. A write that was in flight at the kill may or
/// may not have happened; a write that returned OK must be there after the restart.
@Suite("catalogd survives SIGKILL")
struct CrashDurabilityTests {
    /// Writers per crash cycle; writer `w` uses connection `w % connections`.
    static let writers = 4
    static let connections = 2
    /// SIGKILL once this many writes of the cycle were acknowledged.
    static let killAfter = 400
    static let cycles = 2
    static let callOptions = CallOptions(timeout: .seconds(5))

    @Test("every acknowledged write survives a SIGKILL in the middle of a write stream", .timeLimit(.minutes(3)))
    func acknowledgedWritesSurviveSIGKILL() async throws {
        var processes: [CatalogdProcess] = []
        defer {
            // Newest first: only the first one's kill() removes the shared directory.
            for process in processes.reversed() { process.kill() }
        }
        var catalogd = try await CatalogdProcess.start()
        processes.append(catalogd)
        let database = catalogd.directory.appendingPathComponent("catalog.sqlite").path
        let ledger = Ledger()
        // A fresh database already holds the default categories: they are the starting point.
        await ledger.settle(try await Self.baseline(port: catalogd.port))

        for cycle in 1...Self.cycles {
            await ledger.startCycle(killAfter: Self.killAfter)
            try await Self.writeUntilKilled(cycle: cycle, catalogd: catalogd, ledger: ledger)
            let exit = try await catalogd.waitForExit(timeout: .seconds(10))
            #expect(exit.killedBySignal && exit.status == SIGKILL, "cycle \(cycle): \(exit)")

            let port = try freeLoopbackPort()
            catalogd = try CatalogdProcess(
                arguments: ["--address", "127.0.0.1:\(port)", "--database", database],
                port: port,
                directory: processes[0].directory
            )
            processes.append(catalogd)
            try await catalogd.waitUntilReady()

            let observed = try await Self.verify(cycle: cycle, port: catalogd.port, ledger: ledger)
            // What was in flight at the kill is now settled: the next cycle builds on what is there.
            await ledger.settle(observed)
        }

        catalogd.send(SIGTERM)
        let exit = try await catalogd.waitForExit()
        #expect(exit.status == 0 && !exit.killedBySignal, "\(exit)")
    }

    // MARK: - Writing

    /// Runs the writers of one cycle; one of them sends SIGKILL once `killAfter` writes were
    /// acknowledged, and each stops at its first failed call.
    static func writeUntilKilled(cycle: Int, catalogd: CatalogdProcess, ledger: Ledger) async throws {
        var clients: [(connection: HTTP2ClientConnection, rpc: RPCClient)] = []
        for _ in 0..<connections {
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: catalogd.port, configuration: .catalog)
            clients.append((connection, RPCClient(transport: connection)))
        }
        let outcomes = await withTaskGroup(of: WriterOutcome.self) { group in
            for writer in 0..<writers {
                let rpc = clients[writer % connections].rpc
                group.addTask {
                    await Writer(cycle: cycle, index: writer, rpc: rpc, ledger: ledger, catalogd: catalogd).run()
                }
            }
            var outcomes: [WriterOutcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        for client in clients {
            _ = try? await withTimeout(.seconds(5), "closing a connection to the killed catalogd") {
                await client.connection.close()
            }
        }
        let killSent = await ledger.killSent
        let acknowledged = await ledger.acknowledgedThisCycle
        #expect(killSent, "cycle \(cycle): the writers stopped after \(acknowledged) acknowledged writes, before the kill: \(outcomes)")
        for outcome in outcomes {
            // Every writer was still writing when the kill came: it saw its failure only afterwards.
            #expect(outcome.failedAfterKill, "cycle \(cycle): \(outcome)")
        }
    }

    /// One writer: a mix of CreateItem, Categories.Create, UpdateItem, AssignItems and DeleteItem
    /// on items and categories only it creates, so the last acknowledged state of each is known.
    struct Writer {
        let cycle: Int
        let index: Int
        let rpc: RPCClient
        let ledger: Ledger
        let catalogd: CatalogdProcess

        func run() async -> WriterOutcome {
            var random = SplitMix64(seed: UInt64(cycle * 1000 + index))
            var items: [Int64] = []
            var categories: [Int64] = []
            var step = 0
            // A bound in case the kill never comes; far beyond `killAfter`.
            while step < 20 * CrashDurabilityTests.killAfter {
                step += 1
                let name = "c\(cycle)-w\(index)-\(step)"
                let roll = random.next() % 100
                let write: PendingWrite
                if categories.isEmpty || roll < 10 {
                    write = .createCategory(name: "\(name) category")
                } else if items.isEmpty || roll < 50 {
                    let category: Int64? = random.next() % 3 == 0 ? nil : categories[Int(random.next() % UInt64(categories.count))]
                    write = .createItem(title: name, categoryId: category)
                } else if roll < 70 {
                    write = .updateTitle(id: items[Int(random.next() % UInt64(items.count))], title: "\(name) renamed")
                } else if roll < 88 {
                    var ids: Set<Int64> = []
                    for _ in 0..<(1 + random.next() % 3) { ids.insert(items[Int(random.next() % UInt64(items.count))]) }
                    let category: Int64? = random.next() % 4 == 0 ? nil : categories[Int(random.next() % UInt64(categories.count))]
                    write = .assign(ids: ids.sorted(), categoryId: category)
                } else {
                    write = .delete(id: items[Int(random.next() % UInt64(items.count))])
                }

                await ledger.begin(writer: index, write)
                let effect: Effect
                do {
                    effect = try await perform(write)
                } catch {
                    let killSent = await ledger.killSent
                    return WriterOutcome(writer: index, steps: step, error: error, failedAfterKill: killSent)
                }
                switch effect {
                case .createdItem(let id): items.append(id)
                case .createdCategory(let id): categories.append(id)
                case .deletedItem(let id): items.removeAll { $0 == id }
                case .none: break
                }
                if await ledger.acknowledge(writer: index, write, effect) {
                    catalogd.send(SIGKILL)
                }
            }
            return WriterOutcome(writer: index, steps: step, error: nil, failedAfterKill: false)
        }

        private func perform(_ write: PendingWrite) async throws(RPCError) -> Effect {
            let options = CrashDurabilityTests.callOptions
            switch write {
            case .createCategory(let name):
                let category = try await rpc.unary(CategoriesService.create, CreateCategoryRequest(name: name), options: options)
                guard category.name == name else { throw RPCError(.internalError, "created \(category), asked for \(name)") }
                return .createdCategory(category.id)
            case .createItem(let title, let categoryId):
                let item = try await rpc.unary(
                    CatalogService.createItem, CreateItemRequest(title: title, categoryId: categoryId), options: options)
                guard item.title == title, item.categoryId == categoryId else {
                    throw RPCError(.internalError, "created \(item), asked for \(title) in \(String(describing: categoryId))")
                }
                return .createdItem(item.id)
            case .updateTitle(let id, let title):
                let item = try await rpc.unary(CatalogService.updateItem, UpdateItemRequest(id: id, title: title), options: options)
                guard item.title == title else { throw RPCError(.internalError, "updated \(item), asked for \(title)") }
                return .none
            case .assign(let ids, let categoryId):
                _ = try await rpc.unary(
                    CategoriesService.assignItems, AssignItemsRequest(itemIds: ids, categoryId: categoryId), options: options)
                return .none
            case .delete(let id):
                _ = try await rpc.unary(CatalogService.deleteItem, IDRequest(id: id), options: options)
                return .deletedItem(id)
            }
        }
    }

    // MARK: - Checking

    /// Checks, through the API of the restarted catalogd, that every acknowledged write is there
    /// and the invariants hold; returns what is there.
    static func verify(cycle: Int, port: Int, ledger: Ledger) async throws -> Observed {
        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: .catalog)
        do {
            let observed = try await verify(cycle: cycle, rpc: RPCClient(transport: connection), ledger: ledger)
            await connection.close()
            return observed
        } catch {
            await connection.close()
            throw error
        }
    }

    private static func verify(cycle: Int, rpc: RPCClient, ledger: Ledger) async throws -> Observed {
        let expected = await ledger.expectation()
        let context = "cycle \(cycle) (\(expected.acknowledged) writes acknowledged in all, in flight at the kill: \(expected.pending))"

        // Every item there is, page by page.
        let all = try await listAll(rpc, categoryId: nil)
        let present = Dictionary(all.items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(present.count == all.items.count, "\(context): an item listed twice")

        // Every acknowledged item is there, with its last acknowledged title and category, unless
        // the write in flight at the kill changed or deleted it.
        for (id, want) in expected.items.sorted(by: { $0.key < $1.key }) {
            let allowed = expected.pending.compactMap { $0.possibleOutcome(for: id, from: want) }
            guard let got = present[id] else {
                let mayBeGone = allowed.contains { $0 == nil }
                #expect(mayBeGone, "\(context): acknowledged item \(id) \(want) is missing")
                continue
            }
            let acceptable = [want] + allowed.compactMap { $0 }
            #expect(
                acceptable.contains(ExpectedItem(title: got.title, categoryId: got.categoryId)),
                "\(context): item \(id) is \(got.title) in \(String(describing: got.categoryId)); acknowledged \(want), may also be \(allowed)")
        }
        // Nothing else is there but what a create in flight at the kill may have made.
        let inFlightTitles = Set(expected.pending.compactMap(\.createdTitle))
        for item in all.items where expected.items[item.id] == nil {
            #expect(
                inFlightTitles.contains(item.title) && !expected.deleted.contains(item.id),
                "\(context): item \(item.id) '\(item.title)' was never acknowledged (or was deleted)")
        }
        // Every acknowledged delete holds.
        for id in expected.deleted.sorted() {
            do {
                let item = try await rpc.unary(CatalogService.getItem, IDRequest(id: id), options: callOptions)
                Issue.record("\(context): item \(id) was deleted (acknowledged) but is back: \(item)")
            } catch {
                #expect(error.code == .notFound, "\(context): GetItem \(id): \(error)")
            }
        }

        // Every acknowledged category is there; only a create in flight may have added one.
        let categories = try await rpc.unary(CategoriesService.list, ListCategoriesRequest(), options: callOptions).categories
        let byId = Dictionary(categories.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, name) in expected.categories.sorted(by: { $0.key < $1.key }) {
            #expect(byId[id]?.name == name, "\(context): acknowledged category \(id) '\(name)' is \(String(describing: byId[id]))")
        }
        let inFlightCategories = Set(expected.pending.compactMap(\.createdCategoryName))
        for category in categories where expected.categories[category.id] == nil {
            #expect(inFlightCategories.contains(category.name), "\(context): category \(category) was never acknowledged")
        }

        // Invariants: positions 0..n-1, slugs unique, counts agree with the items.
        #expect(categories.map(\.position).sorted() == Array(0..<categories.count), "\(context): positions \(categories.map(\.position))")
        #expect(Set(categories.map(\.slug)).count == categories.count, "\(context): slugs \(categories.map(\.slug))")
        for category in categories {
            let inCategory = try await listAll(rpc, categoryId: category.id)
            #expect(
                category.itemCount == inCategory.totalCount && inCategory.items.count == inCategory.totalCount,
                "\(context): category \(category.id) says \(category.itemCount) items; ListItems says \(inCategory.totalCount), pages held \(inCategory.items.count)")
            let foreign = inCategory.items.filter { $0.categoryId != category.id }
            #expect(foreign.isEmpty, "\(context): ListItems(categoryId: \(category.id)) returned \(foreign)")
        }
        let stats = try await rpc.unary(CategoriesService.stats, Empty(), options: callOptions)
        #expect(stats.itemCount == all.totalCount, "\(context): Stats says \(stats.itemCount) items; ListItems says \(all.totalCount)")
        #expect(all.items.count == all.totalCount, "\(context): ListItems totalCount \(all.totalCount), pages held \(all.items.count)")
        #expect(stats.categoryCount == categories.count, "\(context): Stats says \(stats.categoryCount) categories; List has \(categories.count)")
        #expect(
            stats.uncategorizedItemCount == all.items.filter { $0.categoryId == nil }.count,
            "\(context): Stats says \(stats.uncategorizedItemCount) uncategorized items")

        return Observed(
            items: present.mapValues { ExpectedItem(title: $0.title, categoryId: $0.categoryId) },
            categories: Dictionary(categories.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first }))
    }

    /// What a catalogd holds before any write of the test.
    static func baseline(port: Int) async throws -> Observed {
        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: .catalog)
        let rpc = RPCClient(transport: connection)
        do {
            let items = try await listAll(rpc, categoryId: nil).items
            let categories = try await rpc.unary(CategoriesService.list, ListCategoriesRequest(), options: callOptions).categories
            await connection.close()
            return Observed(
                items: Dictionary(items.map { ($0.id, ExpectedItem(title: $0.title, categoryId: $0.categoryId)) }, uniquingKeysWith: { a, _ in a }),
                categories: Dictionary(categories.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a }))
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Every item (of `categoryId`, if given) by pages of 500, and the first page's totalCount.
    static func listAll(_ rpc: RPCClient, categoryId: Int64?) async throws -> (items: [Item], totalCount: Int) {
        var items: [Item] = []
        var token: String?
        var totalCount: Int?
        repeat {
            let page = try await rpc.unary(
                CatalogService.listItems, ListItemsRequest(categoryId: categoryId, pageSize: 500, pageToken: token),
                options: callOptions)
            items += page.items
            totalCount = totalCount ?? page.totalCount
            token = page.nextPageToken
        } while token != nil && items.count <= 100_000
        return (items, totalCount ?? 0)
    }
}

// MARK: - The ledger of acknowledged writes

/// An item's state as far as the writers are concerned.
struct ExpectedItem: Sendable, Hashable, CustomStringConvertible {
    var title: String
    var categoryId: Int64?

    var description: String { "'\(title)' in \(categoryId.map(String.init) ?? "no category")" }
}

/// A write a writer sent; until it is acknowledged it may or may not have happened.
enum PendingWrite: Sendable, Hashable, CustomStringConvertible {
    case createCategory(name: String)
    case createItem(title: String, categoryId: Int64?)
    case updateTitle(id: Int64, title: String)
    case assign(ids: [Int64], categoryId: Int64?)
    case delete(id: Int64)

    /// What item `id`, acknowledged as `state`, may be if this write happened: `.some(nil)` for
    /// gone, `nil` when this write does not touch it.
    func possibleOutcome(for id: Int64, from state: ExpectedItem) -> ExpectedItem?? {
        switch self {
        case .updateTitle(id, let title): .some(ExpectedItem(title: title, categoryId: state.categoryId))
        case .assign(let ids, let categoryId) where ids.contains(id): .some(ExpectedItem(title: state.title, categoryId: categoryId))
        case .delete(id): .some(nil)
        default: nil
        }
    }

    var createdTitle: String? {
        if case .createItem(let title, _) = self { title } else { nil }
    }

    var createdCategoryName: String? {
        if case .createCategory(let name) = self { name } else { nil }
    }

    var description: String {
        switch self {
        case .createCategory(let name): "Categories.Create '\(name)'"
        case .createItem(let title, let categoryId): "CreateItem '\(title)' in \(categoryId.map(String.init) ?? "none")"
        case .updateTitle(let id, let title): "UpdateItem \(id) title '\(title)'"
        case .assign(let ids, let categoryId): "AssignItems \(ids) to \(categoryId.map(String.init) ?? "none")"
        case .delete(let id): "DeleteItem \(id)"
        }
    }
}

/// What an acknowledged write did, as far as the writer needs to know.
enum Effect: Sendable {
    case createdItem(Int64)
    case createdCategory(Int64)
    case deletedItem(Int64)
    case none
}

/// How a writer ended.
struct WriterOutcome: Sendable, CustomStringConvertible {
    var writer: Int
    var steps: Int
    var error: RPCError?
    var failedAfterKill: Bool

    var description: String {
        "writer \(writer) after \(steps) steps: \(error.map { "\($0)" } ?? "no error")\(failedAfterKill ? " (after the kill)" : "")"
    }
}

/// What the restarted catalogd holds.
struct Observed: Sendable {
    var items: [Int64: ExpectedItem]
    var categories: [Int64: String]
}

/// What must be there after a restart.
struct Expectation: Sendable {
    var items: [Int64: ExpectedItem]
    var deleted: Set<Int64>
    var categories: [Int64: String]
    var pending: [PendingWrite]
    var acknowledged: Int
}

/// Every acknowledged write (its effect), the write each writer has in flight, and the kill trigger.
actor Ledger {
    private var items: [Int64: ExpectedItem] = [:]
    private var deleted: Set<Int64> = []
    private var categories: [Int64: String] = [:]
    private var pending: [Int: PendingWrite] = [:]
    private var acknowledged = 0
    private(set) var acknowledgedThisCycle = 0
    private var killAfter = Int.max
    private(set) var killSent = false

    func startCycle(killAfter: Int) {
        self.killAfter = killAfter
        acknowledgedThisCycle = 0
        killSent = false
        pending = [:]
    }

    func begin(writer: Int, _ write: PendingWrite) {
        pending[writer] = write
    }

    /// Records an acknowledged write; true exactly once, for the write that reaches `killAfter`:
    /// its writer sends the SIGKILL.
    func acknowledge(writer: Int, _ write: PendingWrite, _ effect: Effect) -> Bool {
        pending[writer] = nil
        acknowledged += 1
        acknowledgedThisCycle += 1
        switch (write, effect) {
        case (.createCategory(let name), .createdCategory(let id)):
            categories[id] = name
        case (.createItem(let title, let categoryId), .createdItem(let id)):
            items[id] = ExpectedItem(title: title, categoryId: categoryId)
        case (.updateTitle(let id, let title), _):
            items[id]?.title = title
        case (.assign(let ids, let categoryId), _):
            for id in ids { items[id]?.categoryId = categoryId }
        case (.delete(let id), _):
            items[id] = nil
            deleted.insert(id)
        default:
            break
        }
        guard !killSent && acknowledgedThisCycle >= killAfter else { return false }
        killSent = true
        return true
    }

    func expectation() -> Expectation {
        Expectation(
            items: items, deleted: deleted, categories: categories,
            pending: pending.sorted { $0.key < $1.key }.map(\.value), acknowledged: acknowledged)
    }

    /// Takes what the restart showed (already checked against the ledger) as the acknowledged state.
    func settle(_ observed: Observed) {
        for id in items.keys where observed.items[id] == nil { deleted.insert(id) }
        items = observed.items
        categories = observed.categories
        pending = [:]
    }
}
