import CatalogAPI
import CatalogStore
import Foundation
import Synchronization
import Testing

@testable import CatalogStoreSQLite

/// Filter updates for inline handlers (`updateFilter(_:_:completion:)`) run on the caller
/// when the writer is idle, and never make the caller wait behind another write.
@Suite("SQLite store: writes now or later", .timeLimit(.minutes(1)))
struct WriteNowOrLaterTests {
    /// What a completion received, and on which thread.
    final class Outcome: Sendable {
        private let state = Mutex<(result: Result<FilterState, CatalogError>?, thread: String?)>((nil, nil))
        private let (stream, continuation) = AsyncStream.makeStream(of: Void.self)

        func record(_ result: Result<FilterState, CatalogError>) {
            state.withLock { $0 = (result, Self.threadName()) }
            continuation.yield()
        }

        var result: Result<FilterState, CatalogError>? { state.withLock { $0.result } }
        var thread: String? { state.withLock { $0.thread } }

        func wait() async -> Result<FilterState, CatalogError>? {
            for await _ in stream { break }
            return result
        }

        static func threadName() -> String { "\(pthread_self())" }
    }

    @Test("with the writer idle, the update commits on the calling thread before the call returns")
    func idleWriterRunsOnCaller() async throws {
        let store = try makeStore()
        let outcome = Outcome()
        let caller = Outcome.threadName()
        store.updateFilter(FilterRules.builtinFilterID, .setPresentation(.collapsed), completion: outcome.record)
        let state = try #require(outcome.result).get()
        #expect(outcome.thread == caller)
        #expect(state.presentation == .collapsed)
        #expect(state.revision == 2)
        #expect(try await store.filters().first?.revision == 2)
    }

    @Test("with a write running, the update returns at once and commits after it, on another thread")
    func busyWriterAnswersLater() async throws {
        let store = try makeStore()
        let (started, startedSignal) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        async let running: Void = store.write { _ in
            startedSignal.yield()
            release.wait()
        }
        for await _ in started { break }

        let outcome = Outcome()
        store.updateFilter(FilterRules.builtinFilterID, .togglePresentation, completion: outcome.record)
        #expect(outcome.result == nil)  // returned without waiting for the running write
        release.signal()
        try await running
        let state = try #require(await outcome.wait()).get()
        #expect(state.presentation == .collapsed)
        #expect(outcome.thread != Outcome.threadName())
    }

    @Test("errors reach the completion, now or later, and change nothing")
    func errors() async throws {
        let store = try makeStore()
        let now = Outcome()
        store.updateFilter("missing", .togglePresentation, completion: now.record)
        #expect(now.result?.failureReason == "unknownFilter")
        let unknownOption = Outcome()
        store.updateFilter(FilterRules.builtinFilterID, .select(optionID: 999, toggle: false), completion: unknownOption.record)
        #expect(unknownOption.result?.failureReason == "unknownOption")
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
