import CatalogAPI
import CatalogStore
import Foundation
import PropertyBased
import StoreTestSupport
import Synchronization
import Testing

/// Property-based tests: random sequences of every store write, many of them failing, run
/// against each kind of store. On a failure the library shrinks the sequence to a minimal one
/// and prints it with a `.fixedSeed(...)` to reproduce it.
@Suite("Stores: property-based operation sequences")
struct StorePropertyConformanceTests {
    /// How many steps succeeded and failed, over every sequence, to check both were exercised.
    final class Outcomes: Sendable {
        private let counts = Mutex((succeeded: 0, failed: 0, dryRuns: 0))
        func record(failed: Bool, dryRun: Bool) {
            counts.withLock {
                if failed { $0.failed += 1 } else { $0.succeeded += 1 }
                if dryRun && !failed { $0.dryRuns += 1 }
            }
        }
        var value: (succeeded: Int, failed: Int, dryRuns: Int) { counts.withLock { $0 } }
    }

    /// 150 random sequences on each kind of store, in three batches of 50 that run side by side.
    @Test("after every step of a random sequence the invariants hold; failed steps and dry runs change nothing", arguments: StoreKind.allCases, 0..<3)
    func sequentialOperations(_ kind: StoreKind, batch: Int) async throws {
        let outcomes = Outcomes()
        try await kind.withFreshStores { stores in
            await propertyCheck(count: 50, input: StoreOperationGen.sequence(of: 1...40)) { operations in
                try await stores.withStore { store async throws in
                    // Each step's state after is the next one's before: one read a step.
                    var state = try await ObservableState(store)
                    for (step, operation) in operations.enumerated() {
                        let before = state
                        var failure: CatalogError?
                        do throws(CatalogError) {
                            try await operation.apply(to: store)
                        } catch {
                            failure = error
                        }
                        outcomes.record(failed: failure != nil, dryRun: operation.isDryRun)
                        state = try await ObservableState(store)
                        if let failure {
                            #expect(failure.reason != "storage", "step \(step) \(operation): \(failure)")
                            #expect(state == before, "step \(step) \(operation) failed (\(failure.reason)) but changed the store")
                        } else if operation.isDryRun {
                            #expect(state == before, "step \(step) \(operation) is a dry run but changed the store")
                        }
                        assertInvariants(of: state)
                    }
                }
            }
        }
        // About a thousand steps a batch, both outcomes and successful dry runs well represented.
        let total = outcomes.value
        #expect(total.succeeded + total.failed >= 600, "\(total)")
        #expect(total.succeeded >= 250, "\(total)")
        #expect(total.failed >= 150, "\(total)")
        #expect(total.dryRuns >= 5, "\(total)")
    }

    @Test("sequences run concurrently from four tasks leave the invariants true and fail only with catalog errors", arguments: StoreKind.allCases)
    func concurrentOperations(_ kind: StoreKind) async throws {
        let outcomes = Outcomes()
        try await kind.withFreshStores { stores in
            await propertyCheck(count: 20, input: StoreOperationGen.sequence(of: 1...15).array(of: 3...4)) { sequences in
                try await stores.withStore { store async throws in
                    // Something to work on: four categories, two of them with items.
                    for index in 0..<4 {
                        let category = try await store.createCategory(CategoryDraft(name: name(StoreOperation.names[index])))
                        if index < 2 {
                            for title in 0..<3 {
                                _ = try await store.createItem(ItemDraft(title: "seed \(title)", categoryID: category.id))
                            }
                        }
                    }
                    let failures = await withTaskGroup(of: [String].self) { group in
                        for operations in sequences {
                            group.addTask {
                                var failures: [String] = []
                                for operation in operations {
                                    // Typed throws: anything but a `CatalogError` cannot get here.
                                    do throws(CatalogError) {
                                        try await operation.apply(to: store)
                                        outcomes.record(failed: false, dryRun: operation.isDryRun)
                                    } catch {
                                        outcomes.record(failed: true, dryRun: operation.isDryRun)
                                        if error.reason == "storage" { failures.append("\(operation): \(error)") }
                                    }
                                }
                                return failures
                            }
                        }
                        return await group.reduce(into: []) { $0 += $1 }
                    }
                    #expect(failures.isEmpty, "storage errors: \(failures)")
                    try await assertInvariants(store)
                }
            }
        }
        let total = outcomes.value
        #expect(total.succeeded + total.failed >= 400, "\(total)")
        #expect(total.succeeded >= 100, "\(total)")
        #expect(total.failed >= 20, "\(total)")
    }
}
