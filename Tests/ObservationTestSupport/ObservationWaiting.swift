import Observation

/// A wait for an observable change that did not come before its deadline.
package struct ObservationTimeout: Error, CustomStringConvertible {
    package var description: String
}

/// Runs `action`, then waits until an observable property that `read` reads changes, and
/// returns what `read` reads then. The tracking starts before `action`, so a change made by
/// `action` itself (or by anything while it runs) counts.
///
/// Built on `withObservationTracking`: its `onChange` (called as the property is about to be
/// set, on the actor that sets it) resumes the wait, which reads the value once the setting
/// code has given the main actor back.
///
/// - Throws: ``ObservationTimeout`` when nothing changed within `timeout`; what `action` throws.
@MainActor
package func nextChange<Value>(
    of read: @MainActor () -> Value,
    within timeout: Duration = .seconds(10),
    _ description: @autoclosure () -> String = "a change",
    after action: @MainActor () async throws -> Void = {}
) async throws -> Value {
    let changed = Signal()
    _ = withObservationTracking { read() } onChange: { changed.fire() }
    try await action()
    guard await changed.wait(until: .now + timeout) else {
        throw ObservationTimeout(description: "no change within \(timeout): \(description())")
    }
    return read()
}

/// Waits until `condition` holds, checking it now and again after each change of an
/// observable property it read.
///
/// - Throws: ``ObservationTimeout`` when it does not hold within `timeout`.
@MainActor
package func waitUntil(
    _ description: @autoclosure () -> String,
    within timeout: Duration = .seconds(10),
    _ condition: @MainActor () -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while true {
        let changed = Signal()
        let holds = withObservationTracking { condition() } onChange: { changed.fire() }
        if holds { return }
        guard await changed.wait(until: deadline) else {
            throw ObservationTimeout(description: "not within \(timeout): \(description())")
        }
    }
}

/// Every value an observable property took, as observed: for checks on the whole history,
/// such as a revision that never goes backwards. It may miss a value set and replaced within
/// one turn of the main actor, never the last one.
@MainActor
package final class ObservedValues<Value> {
    /// The values seen so far, the first one the value when recording started.
    package private(set) var values: [Value] = []
    private let read: @MainActor @Sendable () -> Value
    private var stopped = false

    /// Starts recording what `read` reads.
    package init(_ read: @escaping @MainActor @Sendable () -> Value) {
        self.read = read
        record()
    }

    /// Stops recording.
    package func stop() {
        stopped = true
    }

    private func record() {
        guard !stopped else { return }
        let value = withObservationTracking { read() } onChange: { [weak self] in
            Task { @MainActor in self?.record() }
        }
        values.append(value)
    }
}
