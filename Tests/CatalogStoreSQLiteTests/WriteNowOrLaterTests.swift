import CatalogAPI
import CatalogStore
import Foundation
import Synchronization
import Testing

@testable import CatalogStoreSQLite

/// Filter updates run on the caller, without suspending, when the writer is idle (so an inline
/// handler answers on its event loop), and never make the caller wait behind another write.
@Suite("SQLite store: writes now or later", .timeLimit(.minutes(1)))
struct WriteNowOrLaterTests {
    /// An update started the way an inline handler starts (`Task.immediate`): what it had
    /// answered when the start returned, and on which thread it committed.
    final class StartedUpdate: Sendable {
        /// What the update answered, and on which thread.
        private final class Outcome: Sendable {
            let state = Mutex<(result: Result<FilterState, CatalogError>?, thread: String?)>((nil, nil))
        }

        private let outcome: Outcome
        private let task: Task<Void, Never>
        /// What the update had answered when its start returned; `nil`: it suspended.
        let atStart: Result<FilterState, CatalogError>?

        init(_ store: SQLiteCatalogStore, _ filterID: String, _ edit: FilterEdit) {
            let outcome = Outcome()
            task = Task.immediate {
                let result: Result<FilterState, CatalogError>
                do throws(CatalogError) {
                    result = .success(try await store.updateFilter(filterID, edit))
                } catch {
                    result = .failure(error)
                }
                outcome.state.withLock { $0 = (result, StartedUpdate.threadName()) }
            }
            self.outcome = outcome
            atStart = outcome.state.withLock { $0.result }
        }

        var thread: String? { outcome.state.withLock { $0.thread } }

        func result() async -> Result<FilterState, CatalogError>? {
            await task.value
            return outcome.state.withLock { $0.result }
        }

        static func threadName() -> String { "\(pthread_self())" }
    }

    @Test("with the writer idle, the update commits on the calling thread before its start returns")
    func idleWriterRunsOnCaller() async throws {
        let store = try makeStore()
        let caller = StartedUpdate.threadName()
        let update = StartedUpdate(store, FilterRules.builtinFilterID, .setPresentation(.collapsed))
        let state = try #require(update.atStart).get()
        #expect(update.thread == caller)
        #expect(state.presentation == .collapsed)
        #expect(state.revision == 2)
        #expect(try await store.filters().first?.revision == 2)
    }

    @Test("with a write running, the update suspends at once and commits after it")
    func busyWriterAnswersLater() async throws {
        let store = try makeStore()
        let (started, startedSignal) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        async let running: Void = store.write { _ in
            startedSignal.yield()
            release.wait()
        }
        for await _ in started { break }

        let update = StartedUpdate(store, FilterRules.builtinFilterID, .togglePresentation)
        #expect(update.atStart == nil)  // suspended without waiting for the running write
        release.signal()
        try await running
        let state = try #require(await update.result()).get()
        #expect(state.presentation == .collapsed)
    }

    @Test("errors are thrown before the start returns, and change nothing")
    func errors() async throws {
        let store = try makeStore()
        #expect(StartedUpdate(store, "missing", .togglePresentation).atStart?.failureReason == "unknownFilter")
        let unknownOption = StartedUpdate(store, FilterRules.builtinFilterID, .select(optionID: 999, toggle: false))
        #expect(unknownOption.atStart?.failureReason == "unknownOption")
        #expect(try await store.filters().first?.revision == 1)
    }
}

@Suite("WriterGate")
struct WriterGateTests {
    @Test("a write runs on its caller only when no job is counted")
    func idleOnly() {
        let gate = WriterGate()
        #expect(gate.writeIfIdle { 1 } == 1)
        gate.submit {}
        #expect(gate.writeIfIdle { 2 } == nil)
        gate.jobEnded()
        #expect(gate.writeIfIdle { 3 } == 3)
    }

    @Test("jobs submitted while a caller writes are held until it ends, then submitted in order")
    func heldJobs() {
        let gate = WriterGate()
        let submitted = Mutex<[Int]>([])
        let result = gate.writeIfIdle { () -> [Int] in
            gate.submit { submitted.withLock { $0.append(1) } }
            gate.submit { submitted.withLock { $0.append(2) } }
            #expect(gate.writeIfIdle { 0 } == nil)
            return submitted.withLock { $0 }
        }
        #expect(result == [])
        #expect(submitted.withLock { $0 } == [1, 2])
        #expect(gate.writeIfIdle { 0 } == nil)  // both jobs still counted until they end
        gate.jobEnded()
        gate.jobEnded()
        #expect(gate.writeIfIdle { 0 } == 0)
    }
}

extension Result where Failure == CatalogError {
    /// The failure's reason (`CatalogError.reason`), `nil` on success.
    var failureReason: String? {
        guard case .failure(let error) = self else { return nil }
        return error.reason
    }
}
