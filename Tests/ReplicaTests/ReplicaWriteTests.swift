import CatalogAPI
import CatalogKit
import Foundation
import Synchronization
import TestSupport
import Testing

/// Writers on every replica at once: the rules hold across replicas as on one process.
@Suite("Replicas: concurrent writers", .serialized, .timeLimit(.minutes(3)))
struct ReplicaWriteTests {
    /// What one writer was told succeeded.
    struct Acknowledged: Sendable {
        var categories: [Int64: String] = [:]
        var items: Set<Int64> = []
    }

    /// Errors a writer may meet because another writer got there first.
    static let raceReasons: Set<String> = ["duplicateName", "notFound", "unknownOption", "alreadyFirst", "alreadyLast", "revisionMismatch"]

    /// One writer's operations on replica `replica`: categories (some with names every writer
    /// tries), items in them, moves, deletes of its own categories, selections and a filter.
    static func write(_ client: CatalogClient, replica: Int, steps: Int) async throws -> Acknowledged {
        var acknowledged = Acknowledged()
        var random = SplitMix64(seed: UInt64(replica + 1) * 7919)
        _ = try await client.filters.define("writer-\(replica)", title: "Writer \(replica)", options: [FilterOption(id: 1, title: "One")])
        for step in 0..<steps {
            do {
                switch random.next() % 7 {
                case 0:
                    let category = try await client.categories.create(name: "r\(replica) c\(step)")
                    acknowledged.categories[category.id] = category.name
                case 1:
                    let category = try await client.categories.create(name: "shared \(step % 4)")
                    acknowledged.categories[category.id] = category.name
                case 2, 3:
                    let own = acknowledged.categories.keys.sorted()
                    let category = own.isEmpty ? nil : own[Int(random.next() % UInt64(own.count))]
                    let item = try await client.items.create(title: "r\(replica) item \(step)", categoryId: category)
                    acknowledged.items.insert(item.id)
                case 4:
                    let own = acknowledged.categories.keys.sorted()
                    guard let id = own.first else { continue }
                    _ = try await client.categories.move(id: id, toPosition: 0)
                case 5:
                    let own = acknowledged.categories.keys.sorted()
                    guard own.count > 2, let id = own.last else { continue }
                    _ = try await client.categories.delete(id: id, items: .unassign)
                    acknowledged.categories[id] = nil
                default:
                    let all = try await client.categories.list()
                    _ = try await client.filters.select("categories", optionId: all[Int(random.next() % UInt64(all.count))].id)
                }
            } catch let error as RPCError where raceReasons.contains(error.detail?.reason ?? "") {
                continue
            }
        }
        return acknowledged
    }

    @Test("concurrent writers on every replica leave every invariant true and every acknowledged write there", arguments: [2, 3])
    func concurrentWriters(replicaCount: Int) async throws {
        try await withReplicas(replicaCount) { replicas in
            var clients: [CatalogClient] = []
            for index in 0..<replicaCount { clients.append(try await replicas.client(index)) }
            let acknowledged = try await withThrowingTaskGroup(of: Acknowledged.self) { group in
                for (index, client) in clients.enumerated() {
                    group.addTask { try await Self.write(client, replica: index, steps: 60) }
                }
                return try await group.reduce(into: [Acknowledged]()) { $0.append($1) }
            }
            // A replica hears the others' writes a moment after they commit, in commit order; the
            // `categories` filter takes a revision with every category write. Once a replica's
            // hub holds the head revision, it has heard every write.
            let head = try #require(Int64(try replicas.psql("SELECT revision FROM filter WHERE id = 'categories'")
                .trimmingCharacters(in: .whitespacesAndNewlines)))
            for (index, client) in clients.enumerated() {
                try await eventually("replica \(index) hears revision \(head) of the categories filter") {
                    try await client.filters.get("categories").revision >= head
                }
                let snapshot = try await CatalogSnapshot.read(client)
                expectInvariants(snapshot)
                let categories = Dictionary(uniqueKeysWithValues: snapshot.categories.map { ($0.id, $0.name) })
                let items = Set(snapshot.items.map(\.id))
                for writer in acknowledged {
                    for (id, name) in writer.categories {
                        #expect(categories[id] == name, "replica \(index) lacks acknowledged category \(id) \(name)")
                    }
                    #expect(writer.items.isSubset(of: items), "replica \(index) lacks acknowledged items")
                }
            }
            for client in clients { await client.close() }
        }
    }
}
