import CatalogAPI
import CatalogStore
import Foundation
import PropertyBased
import StoreTestSupport
import Testing

/// Fixed-seed runs of the shared operation generator (`StoreOperationGen`): the same 300
/// operations every time. `StorePropertyConformanceTests` runs fresh random sequences with shrinking.
@Suite("Stores: random operations")
struct RandomizedStoreConformanceTests {
    @Test("300 random operations, failing ones included, always leave the invariants true", arguments: StoreKind.allCases, [UInt64(1), 42])
    func randomOperations(_ kind: StoreKind, seed: UInt64) async throws {
        try await kind.withStore { store async throws in
            var random = Xoshiro(seed: (seed, seed &* 0x9E37_79B9_7F4A_7C15, ~seed, 0x2545_F491_4F6C_DD1D))
            var outcomes = (succeeded: 0, failed: 0)
            // Each step's state after is the next one's before: one read a step.
            var state = try await ObservableState(store)
            for step in 0..<300 {
                let operation = StoreOperationGen.operation.run(using: &random)
                let before = state
                var failed = false
                do throws(CatalogError) {
                    try await operation.apply(to: store)
                } catch {
                    failed = true
                    #expect(error.reason != "storage", "step \(step) \(operation): \(error)")
                }
                if failed { outcomes.failed += 1 } else { outcomes.succeeded += 1 }
                state = try await ObservableState(store)
                if failed || operation.isDryRun {
                    #expect(state == before, "step \(step) \(operation) changed the store without succeeding")
                }
                assertInvariants(of: state)
            }
            // Both kinds of outcome were exercised.
            #expect(outcomes.succeeded > 100, "\(outcomes)")
            #expect(outcomes.failed > 20, "\(outcomes)")
        }
    }
}
