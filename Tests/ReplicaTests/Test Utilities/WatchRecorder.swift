import CatalogAPI
import CatalogKit
import Synchronization
import TestSupport

/// A Watch kept running in a task, its events recorded for the test to look at.
final class WatchRecorder: Sendable {
    /// What the watch did so far.
    private final class Log: Sendable {
        let events = Mutex<[FilterEvent]>([])
        let failure = Mutex<(any Error)?>(nil)
    }

    private let log = Log()
    private let task: Task<Void, Never>
    let label: String

    /// Starts `watch`, which the recorder consumes until `stop()`.
    init(_ label: String, _ watch: FilterWatch) {
        self.label = label
        task = Task { [log] in
            do {
                for try await event in watch { log.events.withLock { $0.append(event) } }
            } catch is CancellationError {
            } catch {
                log.failure.withLock { $0 = error }
            }
        }
    }

    deinit { stop() }

    func stop() {
        task.cancel()
    }

    /// The events with a state (snapshots and changes), in order.
    var states: [FilterEvent] {
        log.events.withLock { $0.filter { $0.state != nil } }
    }

    /// Waits until a state of `revision` or later arrived; throws what ended the watch, if it ended.
    func waitForRevision(_ revision: Int64, timeout: Duration = .seconds(30)) async throws {
        try await eventually(timeout: timeout, "\(label) to reach revision \(revision)") {
            if let error = log.failure.withLock({ $0 }) { throw error }
            return (states.last?.revision ?? .min) >= revision
        }
    }

    /// The revisions of the changes after `since`, which must run since+1, since+2, … without a
    /// gap or a repeat; `nil` when they do, else a description of the first break.
    func gapFreeBreak(after since: Int64) -> String? {
        var expected = since + 1
        for event in states {
            guard event.revision == expected else {
                return "\(label): expected revision \(expected), got \(event.kind) \(event.revision) (all: \(states.map(\.revision)))"
            }
            expected += 1
        }
        return nil
    }
}
