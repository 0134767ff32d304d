#if canImport(RPCHTTP2Client)
import RPCCore
import RPCHTTP2Client
import Synchronization

/// Owns the client's one HTTP/2 connection: opens every call on it, and replaces it when it
/// is lost, with jittered exponential backoff between failed connection attempts.
///
/// With several endpoints (replicas of one service), an attempt tries each once, starting
/// with the one after the endpoint of the connection that was lost: calls move on to another
/// replica instead of waiting for a dead one, and the attempt fails only when none answers.
///
/// Reconnection is lazy: the first call that finds the connection unusable connects again;
/// calls that arrive meanwhile wait for that attempt instead of starting their own. A call
/// whose timeout ends before the backoff allows the next attempt fails at once; an attempt
/// under way is bounded by the connect timeout, not by the call's timeout.
final class ConnectionManager: ClientTransport, OwnedConnections, Sendable {
    private typealias Waiter = CheckedContinuation<Attempt?, Never>

    /// What a caller learns from a connection attempt it waited for.
    private enum Attempt {
        case connected(HTTP2ClientConnection)
        case failed(RPCError)
    }

    private enum State {
        /// No connection; the next attempt may start at `notBefore`, with endpoint `first`.
        case idle(failures: Int, notBefore: ContinuousClock.Instant?, lastError: RPCError?, first: Int)
        /// An attempt is under way; `waiters` are resumed with its outcome.
        case connecting(failures: Int, waiters: [Int: Waiter])
        /// Connected to endpoint `endpoint`.
        case ready(HTTP2ClientConnection, endpoint: Int)
        case closed

        /// What `connectionStates()` says of this state: an idle manager whose last attempt
        /// failed is in transient failure.
        var connectionState: ConnectionState {
            switch self {
            case .idle(_, _, let lastError?, _): .transientFailure(lastError)
            case .idle: .idle
            case .connecting: .connecting
            case .ready: .ready
            case .closed: .shutdown
            }
        }
    }

    /// What a caller does after looking at the state.
    private enum Step {
        case use(HTTP2ClientConnection)
        case connect(failures: Int, first: Int)
        case wait(until: ContinuousClock.Instant, lastError: RPCError?)
        case join
        case fail(RPCError)
    }

    private let endpoints: [CatalogClient.Endpoint]
    private let configuration: HTTP2ClientConfiguration

    /// The `content-type` of every connection's calls.
    var contentType: String { configuration.contentType }
    private let backoff: Backoff
    private let state: Mutex<State>
    private let nextWaiterID = Atomic<Int>(0)
    /// What `connectionStates()` follows: `state.connectionState`, published with each change of `state`.
    private let states: ConnectionStateBroadcast

    private static let closedError = RPCError(.cancelled, "the client is closed")

    /// - Parameters:
    ///   - connection: the connection to `endpoints[endpoint]` made first.
    init(
        endpoints: [CatalogClient.Endpoint], configuration: HTTP2ClientConfiguration, backoff: Backoff,
        connection: HTTP2ClientConnection, endpoint: Int
    ) {
        precondition(endpoints.indices.contains(endpoint), "the first connection is to one of the endpoints")
        self.endpoints = endpoints
        self.configuration = configuration
        self.backoff = backoff
        self.state = Mutex(.ready(connection, endpoint: endpoint))
        self.states = ConnectionStateBroadcast(.ready)
        watchForLoss(of: connection)
    }

    /// A manager with no connection yet: the first call connects.
    init(endpoints: [CatalogClient.Endpoint], configuration: HTTP2ClientConfiguration, backoff: Backoff) {
        precondition(!endpoints.isEmpty, "at least one endpoint")
        self.endpoints = endpoints
        self.configuration = configuration
        self.backoff = backoff
        self.state = Mutex(.idle(failures: 0, notBefore: nil, lastError: nil, first: 0))
        self.states = ConnectionStateBroadcast(.idle)
    }

    var connectionState: ConnectionState { states.current }

    func connectionStates() -> AsyncStream<ConnectionState> { states.stream() }

    /// Connects to the first of `endpoints` that answers, trying them in order from `first`;
    /// returns the connection and its endpoint's index, or throws the last failure.
    static func connectToAny(
        _ endpoints: [CatalogClient.Endpoint], from first: Int = 0, configuration: HTTP2ClientConfiguration
    ) async throws(RPCError) -> (connection: HTTP2ClientConnection, endpoint: Int) {
        var lastError = RPCError(.unavailable, "no endpoint to connect to")
        for offset in endpoints.indices {
            let index = (first + offset) % endpoints.count
            let endpoint = endpoints[index]
            do {
                return (try await HTTP2ClientConnection.connect(host: endpoint.host, port: endpoint.port, configuration: configuration), index)
            } catch {
                lastError = error
            }
        }
        guard endpoints.count > 1 else { throw lastError }
        throw RPCError(.unavailable, "none of \(endpoints.count) endpoints answered; the last: \(lastError.message)", cause: lastError)
    }

    /// Opens the call on the current connection. A connection that refuses to open a stream
    /// (closed, or the server sent GOAWAY) sent nothing, so the call is opened once more on a
    /// fresh connection, whatever the method.
    func openCall(_ method: MethodDescriptor, options: CallOptions) async throws(RPCError) -> any ClientCallStream {
        let deadline = options.timeout.map { ContinuousClock.now + $0 }
        let connection = try await connection(deadline: deadline)
        do {
            return try await connection.openCall(method, options: options)
        } catch where error.code == .unavailable {
            retire(connection)
            return try await self.connection(deadline: deadline).openCall(method, options: options)
        }
    }

    /// Closes the connection gracefully (GOAWAY, open calls finish or, after `gracePeriod`,
    /// end with `error`); later calls fail with CANCELLED.
    func close(gracePeriod: Duration, error: RPCError) async {
        let connection: HTTP2ClientConnection? = state.withLock { state in
            defer {
                state = .closed
                states.publish(state.connectionState)
            }
            switch state {
            case .ready(let connection, _):
                return connection
            case .connecting(_, let waiters):
                for waiter in waiters.values { waiter.resume(returning: .failed(Self.closedError)) }
                return nil
            case .idle, .closed:
                return nil
            }
        }
        await connection?.close(gracePeriod: gracePeriod, error: error)
    }

    // MARK: Connecting

    /// A usable connection: the current one, or a new one once the backoff allows.
    private func connection(deadline: ContinuousClock.Instant?) async throws(RPCError) -> HTTP2ClientConnection {
        while true {
            switch nextStep() {
            case .use(let connection):
                return connection
            case .fail(let error):
                throw error
            case .connect(let failures, let first):
                return try await connect(after: failures, first: first)
            case .join:
                switch await join() {
                case .connected(let connection): return connection
                case .failed(let error): throw error
                case nil: continue
                }
            case .wait(let notBefore, let lastError):
                if let deadline, deadline < notBefore {
                    throw lastError ?? RPCError(.unavailable, "not connected to \(endpoints.map(\.description).joined(separator: ", "))")
                }
                do {
                    try await Task.sleep(until: notBefore, clock: .continuous)
                } catch {
                    throw RPCError(.cancelled, "the call was cancelled")
                }
            }
        }
    }

    private func nextStep() -> Step {
        state.withLock { state in
            switch state {
            case .ready(let connection, _):
                return .use(connection)
            case .closed:
                return .fail(Self.closedError)
            case .connecting:
                return .join
            case .idle(let failures, let notBefore, let lastError, let first):
                if let notBefore, ContinuousClock.now < notBefore {
                    return .wait(until: notBefore, lastError: lastError)
                }
                state = .connecting(failures: failures, waiters: [:])
                states.publish(state.connectionState)
                return .connect(failures: failures, first: first)
            }
        }
    }

    /// Makes one connection attempt (each endpoint once, from `first`) and hands its outcome to
    /// the callers waiting for it.
    private func connect(after failures: Int, first: Int) async throws(RPCError) -> HTTP2ClientConnection {
        let outcome: Attempt
        var endpoint = first  // of the connection made, if one is
        do {
            let connected = try await Self.connectToAny(endpoints, from: first, configuration: configuration)
            (outcome, endpoint) = (.connected(connected.connection), connected.endpoint)
        } catch {
            outcome = .failed(error)
        }
        let (waiters, result): ([Waiter], Attempt) = state.withLock { state in
            guard case .connecting(_, let waiters) = state else {
                // Closed meanwhile: the new connection is not wanted.
                return ([], .failed(Self.closedError))
            }
            switch outcome {
            case .connected(let connection):
                state = .ready(connection, endpoint: endpoint)
            case .failed(let error):
                let delay = backoff.delay(afterFailures: failures + 1)
                state = .idle(failures: failures + 1, notBefore: .now + delay, lastError: error, first: first)
            }
            states.publish(state.connectionState)
            return (Array(waiters.values), outcome)
        }
        for waiter in waiters { waiter.resume(returning: result) }
        switch result {
        case .connected(let connection):
            watchForLoss(of: connection)
            return connection
        case .failed(let error):
            if case .connected(let unwanted) = outcome { await unwanted.close() }
            throw error
        }
    }

    /// Waits for the attempt under way; task cancellation stops waiting. `nil`: the attempt
    /// ended before this caller got in line, so look at the state again.
    private func join() async -> Attempt? {
        let id = nextWaiterID.add(1, ordering: .relaxed).newValue
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Attempt?, Never>) in
                let rejection: Attempt?? = state.withLock { state in
                    if Task.isCancelled { return .some(.failed(RPCError(.cancelled, "the call was cancelled"))) }
                    guard case .connecting(let failures, var waiters) = state else { return .some(nil) }
                    waiters[id] = continuation
                    state = .connecting(failures: failures, waiters: waiters)
                    return nil
                }
                if let rejection { continuation.resume(returning: rejection) }
            }
        } onCancel: {
            let waiter: Waiter? = state.withLock { state in
                guard case .connecting(let failures, var waiters) = state else { return nil }
                let waiter = waiters.removeValue(forKey: id)
                state = .connecting(failures: failures, waiters: waiters)
                return waiter
            }
            waiter?.resume(returning: .failed(RPCError(.cancelled, "the call was cancelled")))
        }
    }

    /// Forgets `connection` after it refused a call, so that the next call reconnects,
    /// trying the next endpoint first.
    private func retire(_ connection: HTTP2ClientConnection) {
        state.withLock { state in
            guard case .ready(let current, let endpoint) = state, current === connection else { return }
            state = .idle(failures: 0, notBefore: nil, lastError: nil, first: (endpoint + 1) % endpoints.count)
            states.publish(state.connectionState)
        }
    }

    /// Retires `connection` as soon as it closes (the server went away, keepalive found it
    /// dead), so that the state says so before the next call finds out. The callback holds
    /// the manager strongly (a weak reference would slow every retain of it) until the
    /// connection closes, which `close()` makes it do.
    private func watchForLoss(of connection: HTTP2ClientConnection) {
        connection.whenClosed { self.retire(connection) }
    }
}
#endif
