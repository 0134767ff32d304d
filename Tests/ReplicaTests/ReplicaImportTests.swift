import CatalogAPI
import CatalogKit
import Foundation
import Synchronization
import TestSupport
import Testing

/// ImportItems through one replica, read through another.
@Suite("Replicas: ImportItems", .serialized, .timeLimit(.minutes(3)))
struct ReplicaImportTests {
    @Test("another replica sees an import whole, at its one revision, never part of it")
    func importSeenWhole() async throws {
        try await withReplicas(2) { replicas in
            let writer = try await replicas.client(0)
            let reader = try await replicas.client(1)
            let before = try await reader.items.list(pageSize: 1).revision
            let requests = (0..<5_000).map { CreateItemRequest(title: "Replica \($0)", categoryId: $0.isMultiple(of: 2) ? 1 : nil) }

            // The reader lists while the import runs: each listing holds none of it or all of it.
            let seen = Mutex<[(revision: Int64, count: Int)]>([])
            let watching = Task {
                while !Task.isCancelled {
                    let page = try await reader.items.list(pageSize: 1)
                    seen.withLock { $0.append((page.revision, page.totalCount)) }
                    if page.totalCount == requests.count { return }
                }
            }
            let result = try await writer.items.import(requests.streamed)
            #expect(result.created == 5_000)
            #expect(result.revision == before + 1)
            try await eventually("replica 1 sees the import") { try await reader.items.list(pageSize: 1).totalCount == 5_000 }
            watching.cancel()
            _ = await watching.result

            for (revision, count) in seen.withLock({ $0 }) {
                #expect(count == 0 && revision == before || count == 5_000 && revision == result.revision, "\(count) items at revision \(revision)")
            }
            let page = try await reader.items.list(pageSize: 500)
            #expect(page.revision == result.revision)
            #expect(page.items.allSatisfy { $0.revision == result.revision })
            #expect(try await reader.categories.get(id: 1).itemCount == 2_500)
            await writer.close()
            await reader.close()
        }
    }
}
