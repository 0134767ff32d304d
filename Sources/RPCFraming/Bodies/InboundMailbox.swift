import DequeModule
import RPCCore
import Synchronization

/// Whole messages received on a stream, waiting for the task that reads them.
///
/// The event loop delivers; one task receives. The mailbox tells the event loop when the
/// reader has caught up (`onDrained`), so that withheld flow-control credit is returned only
/// as fast as the reader reads.
package final class InboundMailbox: Sendable {
    private struct State {
        var messages = Deque<[UInt8]>()
        var end: RPCError?? = .none  // .some(nil): ended cleanly; .some(error): failed
        var waiter: CheckedContinuation<Result<[UInt8]?, RPCError>, Never>?
        var notifyWhenDrained = false
    }

    private let state = Mutex(State())
    private let onDrained: @Sendable () -> Void

    /// - Parameter onDrained: called (from the reading task) when the reader took a message
    ///   after `deliver` reported a backlog.
    package init(onDrained: @escaping @Sendable () -> Void) {
        self.onDrained = onDrained
    }

    /// Hands a message to the reader; returns `true` when unread messages are piling up
    /// (more than one), so the caller should withhold flow-control credit.
    package func deliver(_ message: [UInt8]) -> Bool {
        let (waiter, backlog) = state.withLock { state -> (CheckedContinuation<Result<[UInt8]?, RPCError>, Never>?, Bool) in
            guard state.end == nil else { return (nil, false) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, false)
            }
            state.messages.append(message)
            let backlog = state.messages.count > 1
            if backlog { state.notifyWhenDrained = true }
            return (nil, backlog)
        }
        waiter?.resume(returning: .success(message))
        return backlog
    }

    /// Ends the stream of messages: cleanly with `nil`, or with the error the reader gets
    /// once the delivered messages are read.
    package func finish(_ error: RPCError?) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<[UInt8]?, RPCError>, Never>? in
            guard state.end == nil else { return nil }
            state.end = .some(error)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: error.map { .failure($0) } ?? .success(nil))
    }

    /// The next message, `nil` at a clean end; throws the error the stream failed with, or
    /// CANCELLED when the reading task is cancelled while it waits.
    package func receive() async throws(RPCError) -> [UInt8]? {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (ready, drained) = state.withLock { state -> (Result<[UInt8]?, RPCError>?, Bool) in
                    if let message = state.messages.popFirst() {
                        let drained = state.notifyWhenDrained && state.messages.count <= 1
                        if drained { state.notifyWhenDrained = false }
                        return (.success(message), drained)
                    }
                    if let end = state.end {
                        return (end.map { .failure($0) } ?? .success(nil), false)
                    }
                    // Checked under the lock: a cancellation after it finds the waiter.
                    if Task.isCancelled { return (.failure(Self.cancelled), false) }
                    state.waiter = continuation
                    return (nil, false)
                }
                if drained { onDrained() }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: .failure(Self.cancelled))
        }
        return try result.get()
    }

    private static let cancelled = RPCError(.cancelled, "the reading task was cancelled")
}
