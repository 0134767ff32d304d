#if canImport(RPCHTTP2Client)
import RPCCore
import RPCHTTP2Client

/// The rules of round-robin over several endpoints, as a value: where each endpoint stands,
/// which one the next call goes to, and what the client's connection state is.
///
/// An endpoint is usable when it is connected and serving. Calls go to the usable endpoints in
/// turn. With none usable, calls wait while an endpoint may still become usable (an attempt
/// or its first health answer is under way); once every endpoint has failed, the state is a
/// transient failure, and calls fail at once, until one is usable again: background attempts
/// do not bring it back to connecting.
struct RoundRobinState {
    /// What a call does after looking at the state.
    enum Pick {
        /// Open the call on this connection.
        case use(HTTP2ClientConnection)
        /// Nothing has been started yet (a lazy client's first call): start the endpoints'
        /// tasks, then pick again.
        case start
        /// No endpoint is usable yet, but one may become so: wait for the state to change.
        case wait
        /// Fail the call: the client is closed, or every endpoint failed.
        case fail(RPCError)
    }

    /// Where one endpoint stands.
    private enum Endpoint {
        /// Not started yet, or a connection attempt is under way.
        case connecting
        /// The last attempt failed, or the connection was lost or refused a call; the
        /// endpoint's task connects again after the backoff.
        case failed
        /// Connected. `health` is `nil` until the health service first answers; `lost` ends
        /// the wait of the endpoint's task for the connection's end.
        case connected(HTTP2ClientConnection, health: ServingHealth?, lost: AsyncStream<Void>.Continuation)

        var isUsable: Bool {
            if case .connected(_, .serving, _) = self { true } else { false }
        }

        func holds(_ connection: HTTP2ClientConnection) -> Bool {
            if case .connected(let current, _, _) = self { current === connection } else { false }
        }

        /// Whether it may become usable without a new failure first.
        var isPending: Bool {
            switch self {
            case .connecting, .connected(_, nil, _): true
            case .failed, .connected: false
            }
        }
    }

    /// What an endpoint's health service said last.
    enum ServingHealth {
        case serving
        case notServing
    }

    private static let closedError = RPCError(.cancelled, "the client is closed")

    private let names: [String]
    private var endpoints: [Endpoint]
    /// Per endpoint, the attempts that failed and the connections lost since it was last
    /// usable: what its backoff counts.
    private var failures: [Int]
    /// The endpoint the rotation tries first for the next call.
    private var next = 0
    private var started = false
    private var closed = false
    /// The last reason an endpoint left the rotation.
    private var lastError: RPCError?
    /// Set once every endpoint has failed, until one is usable again.
    private var failure: RPCError?

    /// - Parameter endpoints: at least one.
    init(endpoints: [CatalogClient.Endpoint]) {
        precondition(!endpoints.isEmpty, "at least one endpoint")
        names = endpoints.map(\.description)
        self.endpoints = Array(repeating: .connecting, count: endpoints.count)
        failures = Array(repeating: 0, count: endpoints.count)
    }

    /// What `connectionStates()` says of this state.
    var connectionState: ConnectionState {
        if closed { return .shutdown }
        if !started { return .idle }
        if endpoints.contains(where: \.isUsable) { return .ready }
        if let failure { return .transientFailure(failure) }
        return .connecting
    }

    // MARK: Calls

    /// Where the next call goes: the usable endpoint after the last one picked.
    mutating func pick() -> Pick {
        if closed { return .fail(Self.closedError) }
        if !started { return .start }
        for offset in endpoints.indices {
            let index = (next + offset) % endpoints.count
            if case .connected(let connection, .serving, _) = endpoints[index] {
                next = (index + 1) % endpoints.count
                return .use(connection)
            }
        }
        if let failure { return .fail(failure) }
        return .wait
    }

    /// Marks the endpoints' tasks started; `false` when they are (or the client is closed).
    mutating func start() -> Bool {
        guard !started, !closed else { return false }
        started = true
        return true
    }

    /// Takes `connection` out of the rotation after it refused to open a call (it is closing,
    /// or the server sent GOAWAY); returns what ends its endpoint task's wait for the
    /// connection's end, so that the task connects again.
    mutating func retire(_ connection: HTTP2ClientConnection) -> AsyncStream<Void>.Continuation? {
        guard let index = endpoints.firstIndex(where: { $0.holds(connection) }),
              case .connected(_, _, let lost) = endpoints[index]
        else { return nil }
        endpoints[index] = .failed
        lastError = RPCError(.unavailable, "\(names[index]) refused a call")
        settle()
        return lost
    }

    /// Closes the state for good; returns the connections to close.
    mutating func close() -> [HTTP2ClientConnection] {
        guard !closed else { return [] }
        closed = true
        return endpoints.compactMap {
            if case .connected(let connection, _, _) = $0 { connection } else { nil }
        }
    }

    // MARK: What an endpoint's task reports
    // Each returns `false` (or `nil`) once the client is closed: the task then stops.

    /// A new attempt starts, after the backoff.
    mutating func attempting(_ index: Int) -> Bool {
        guard !closed else { return false }
        endpoints[index] = .connecting
        settle()
        return true
    }

    /// An attempt failed with `error`; returns the failures to back off after.
    mutating func failed(_ index: Int, _ error: RPCError) -> Int? {
        guard !closed else { return nil }
        endpoints[index] = .failed
        lastError = error
        failures[index] += 1
        settle()
        return failures[index]
    }

    /// `connection` is up; `health` is `nil` while its health is yet to be heard, `.serving`
    /// when it is not checked.
    mutating func connected(
        _ index: Int, _ connection: HTTP2ClientConnection, health: ServingHealth?, lost: AsyncStream<Void>.Continuation
    ) -> Bool {
        guard !closed else { return false }
        endpoints[index] = .connected(connection, health: health, lost: lost)
        settle()
        return true
    }

    /// The health service of `connection`'s server said `health`; ignored once the endpoint
    /// moved on from that connection.
    mutating func heard(_ health: ServingHealth, from connection: HTTP2ClientConnection, _ index: Int) {
        guard !closed, endpoints[index].holds(connection), case .connected(_, _, let lost) = endpoints[index] else { return }
        endpoints[index] = .connected(connection, health: health, lost: lost)
        if health == .notServing { lastError = RPCError(.unavailable, "\(names[index]) is not serving") }
        settle()
    }

    /// `connection` closed, or was retired; returns the failures to back off after before
    /// connecting again: one, after a connection that was usable.
    mutating func lost(_ connection: HTTP2ClientConnection, _ index: Int) -> Int? {
        guard !closed else { return nil }
        if endpoints[index].holds(connection) {
            endpoints[index] = .failed
            lastError = RPCError(.unavailable, "the connection to \(names[index]) was lost")
        }
        failures[index] += 1
        settle()
        return failures[index]
    }

    /// Keeps `failures` and `failure` in step: a usable endpoint's failures are forgotten;
    /// `failure` is cleared when an endpoint is usable, set when every endpoint has failed or
    /// is not serving.
    private mutating func settle() {
        for index in endpoints.indices where endpoints[index].isUsable { failures[index] = 0 }
        if endpoints.contains(where: \.isUsable) {
            failure = nil
        } else if !endpoints.contains(where: \.isPending) {
            let last = lastError ?? RPCError(.unavailable, "no endpoint is ready")
            failure = endpoints.count == 1
                ? last
                : RPCError(.unavailable, "none of \(endpoints.count) endpoints is ready; the last failure: \(last.message)", cause: last)
        }
    }
}
#endif
