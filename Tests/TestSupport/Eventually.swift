/// Polls `poll` every `interval` until it returns a value, and returns that value. Once
/// `timeout` has passed it polls once more (a loaded machine may not run the loop at all for a
/// while), then throws `EventuallyTimedOut` naming `what`. An error `poll` throws ends it.
@discardableResult
package func eventually<T>(
    timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(10),
    _ what: @autoclosure () -> String = "a condition to hold",
    _ poll: () async throws -> T?
) async throws -> T {
    let end = ContinuousClock.now + timeout
    while ContinuousClock.now < end {
        if let value = try await poll() { return value }
        try await Task.sleep(for: interval)
    }
    if let value = try await poll() { return value }
    throw EventuallyTimedOut(what: what(), timeout: timeout)
}

/// Polls `condition` as `eventually` polls for a value, until it holds.
package func eventually(
    timeout: Duration = .seconds(30), every interval: Duration = .milliseconds(10),
    _ what: @autoclosure () -> String = "a condition to hold",
    _ condition: () async throws -> Bool
) async throws {
    try await eventually(timeout: timeout, every: interval, what()) { try await condition() ? () : nil }
}

/// What `eventually` waited for did not come within its timeout.
package struct EventuallyTimedOut: Error, CustomStringConvertible {
    package let what: String
    package let timeout: Duration

    package var description: String { "still waiting for \(what) after \(timeout)" }
}
