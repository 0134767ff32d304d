import Logging
import PostgresNIO
import Synchronization

/// Why a statement got no answer from PostgreSQL.
enum RoundTripError: Error, CustomStringConvertible {
    /// The connection was closed before the statement could be sent.
    case connectionClosed
    /// PostgreSQL did not answer within the bound; the connection was closed.
    case timedOut(Duration)

    var description: String {
        switch self {
        case .connectionClosed: "the connection to PostgreSQL was closed"
        case .timedOut(let bound): "PostgreSQL did not answer within \(bound): the connection was closed"
        }
    }
}

/// The connection was lost before any work was done on it (its `BEGIN` failed, or its first
/// statement found it closed before sending): the work may run on another connection.
struct ConnectionLostBeforeUse: Error {
    let cause: any Error
}

extension PostgresConnection {
    /// Runs one statement and returns its rows, waiting at most `timeout` for the answer and
    /// no longer than the calling task stays uncancelled.
    ///
    /// postgres-nio's own `query` hands its statement to the channel without watching the
    /// write: on a connection that has just closed, the statement is dropped and its answer
    /// never comes, and nothing bounds a server that stops answering. So the statement is
    /// started on the connection's event loop, and only while the channel is open: its handler
    /// is then in the pipeline and fails the statement if the connection closes later. When
    /// the bound passes or the task is cancelled, the connection is closed (PostgreSQL rolls
    /// back what it held, the pool replaces it) and this returns at once, with
    /// `RoundTripError.timedOut` or `CancellationError`.
    @discardableResult
    func roundTrip(_ query: PostgresQuery, timeout: Duration, logger: Logger) async throws -> [PostgresRow] {
        let trip = RoundTrip()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard trip.begin(continuation) else { return }
                eventLoop.execute { trip.send(query, on: self, timeout: timeout, logger: logger) }
            }
        } onCancel: {
            trip.end(.failure(CancellationError()), closing: self)
        }
    }
}

extension PostgresConnection {
    /// Starts closing the connection; what waits on it fails.
    func closeWithoutWaiting() {
        let _: EventLoopFuture<Void> = close()
    }
}

/// One statement's wait for its answer, ended once: by the answer, the bound or cancellation.
private final class RoundTrip: Sendable {
    private enum State {
        case starting
        case cancelledBeforeStart
        case waiting(CheckedContinuation<[PostgresRow], any Error>)
        case ended
    }

    private let state = Mutex(State.starting)

    /// Takes the continuation; `false` (and the continuation resumed) when the task was
    /// cancelled already.
    func begin(_ continuation: CheckedContinuation<[PostgresRow], any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if case .cancelledBeforeStart = state { state = .ended; return true }
            state = .waiting(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// On the connection's event loop: sends the statement, unless the wait ended meanwhile or
    /// the channel is closed, and arms the bound.
    func send(_ query: PostgresQuery, on connection: PostgresConnection, timeout: Duration, logger: Logger) {
        guard isWaiting else { return }
        guard !connection.isClosed else { return end(.failure(RoundTripError.connectionClosed)) }
        let timer = connection.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            self.end(.failure(RoundTripError.timedOut(timeout)), closing: connection)
        }
        connection.query(query, logger: logger).whenComplete { result in
            timer.cancel()
            self.end(result.map(\.rows))
        }
    }

    private var isWaiting: Bool {
        state.withLock { state in
            if case .waiting = state { return true }
            return false
        }
    }

    /// Ends the wait with `result` unless it ended already; closes `connection` if this ended
    /// it. Before `begin`, only cancellation ends it: `begin` then resumes at once.
    func end(_ result: Result<[PostgresRow], any Error>, closing connection: PostgresConnection? = nil) {
        let continuation = state.withLock { state -> CheckedContinuation<[PostgresRow], any Error>? in
            switch state {
            case .starting:
                state = .cancelledBeforeStart
                return nil
            case .waiting(let continuation):
                state = .ended
                return continuation
            case .cancelledBeforeStart, .ended:
                return nil
            }
        }
        guard let continuation else { return }
        connection?.closeWithoutWaiting()
        continuation.resume(with: result)
    }
}
