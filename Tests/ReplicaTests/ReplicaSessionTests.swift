import CatalogAPI
import CatalogKit
import Foundation
import Synchronization
import TestSupport
import Testing

/// Filters/Session on one replica while another writes the same filter.
@Suite("Replicas: Filters/Session", .serialized, .timeLimit(.minutes(3)))
struct ReplicaSessionTests {
    @Test("a session's actions are answered in order among another replica's changes, without a gap, and both replicas agree")
    func actionsAmongOtherWriters() async throws {
        try await withReplicas(2) { replicas in
            let other = try await replicas.client(0)
            let own = try await replicas.client(1)
            let options = try await own.filters.get("categories").options.map(\.id)
            let actions = 40
            let events = try await own.filters.session("categories", delivery: .everyChange) { session in
                let reading = Task {
                    var events: [FilterEvent] = []
                    var tagged = 0
                    for try await event in session.events {
                        events.append(event)
                        if event.tag != nil { tagged += 1 }
                        if tagged == actions { return events }
                    }
                    return events
                }
                let elsewhere = Task {
                    for index in 0..<actions {
                        _ = try await other.filters.select("categories", optionId: options[index % options.count])
                    }
                }
                for index in 0..<actions {
                    _ = try await session.perform(.select(optionId: options[(index + 1) % options.count], toggle: true))
                }
                try await elsewhere.value
                return try await reading.value
            }
            let states = events.filter { $0.state != nil }
            let revisions = states.map(\.revision)
            #expect(revisions == Array(revisions[0]...revisions[0] + Int64(revisions.count - 1)), "every revision, once, in order")
            #expect(events.compactMap(\.tag) == (1...actions).map { "a\($0)" })
            let final = try #require(states.last?.state)
            try await eventually("replica 0 agrees") { try await other.filters.get("categories").revision >= final.revision }
            #expect(try await own.filters.get("categories").revision >= final.revision)
            await other.close()
            await own.close()
        }
    }
}
