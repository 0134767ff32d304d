#if canImport(RPCHTTP2Client)
import CatalogAPI
import RPCCore
import RPCHTTP2Client
import Synchronization

/// Keeps one HTTP/2 connection per endpoint and sends each call to the next usable endpoint
/// in turn (the rules are `RoundRobinState`'s).
///
/// A task per endpoint connects, watches the server's health on the connection when asked to,
/// and connects again after a failed attempt or a lost connection, with jittered exponential
/// backoff: calls never connect. While no endpoint is usable but one may become so (an attempt
/// or its first health answer is under way), a call waits for it within its timeout; once
/// every endpoint has failed, calls fail at once. `close()` ends the tasks.
final class RoundRobinBalancer: ClientTransport, OwnedConnections, Sendable {
    private let endpoints: [CatalogClient.Endpoint]
    private let configuration: HTTP2ClientConfiguration
    private let backoff: Backoff
    private let healthCheck: Bool
    private let state: Mutex<RoundRobinState>
    /// The endpoints' tasks, once started.
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// What `connectionStates()` follows: `state.connectionState`, published with each change of `state`.
    private let states = ConnectionStateBroadcast(.idle)

    /// The `content-type` of every connection's calls.
    var contentType: String { configuration.contentType }

    /// A balancer that connects on its first call, or on `connect()`.
    init(endpoints: [CatalogClient.Endpoint], configuration: HTTP2ClientConfiguration, backoff: Backoff, healthCheck: Bool) {
        self.endpoints = endpoints
        self.configuration = configuration
        self.backoff = backoff
        self.healthCheck = healthCheck
        self.state = Mutex(RoundRobinState(endpoints: endpoints))
    }

    var connectionState: ConnectionState { states.current }

    func connectionStates() -> AsyncStream<ConnectionState> { states.stream() }

    /// Starts connecting to every endpoint and returns once one is usable; throws UNAVAILABLE,
    /// after closing, when every endpoint failed (or is not serving).
    func connect() async throws(RPCError) {
        startEndpoints()
        try await waitWhileConnecting(until: nil)
        if case .transientFailure(let error) = connectionState {
            await close(gracePeriod: .zero, error: error)
            throw error
        }
    }

    /// Opens the call on the next usable endpoint. A connection that refuses to open a stream
    /// (closed, or the server sent GOAWAY) sent nothing, so it leaves the rotation and the
    /// call is opened once more on the next endpoint, whatever the method.
    func openCall(_ method: MethodDescriptor, options: CallOptions) async throws(RPCError) -> any ClientCallStream {
        let deadline = options.timeout.map { ContinuousClock.now + $0 }
        let connection = try await connection(deadline: deadline)
        do {
            return try await connection.openCall(method, options: options)
        } catch where error.code == .unavailable {
            update { $0.retire(connection) }?.finish()
            return try await self.connection(deadline: deadline).openCall(method, options: options)
        }
    }

    /// Closes every connection gracefully (GOAWAY, open calls finish or, after `gracePeriod`,
    /// end with `error`) and ends the endpoints' tasks, waiting for a connection attempt under
    /// way (at most the connect timeout); later calls fail with CANCELLED.
    func close(gracePeriod: Duration, error: RPCError) async {
        let connections = update { $0.close() }
        let tasks = self.tasks.withLock { $0 }
        for task in tasks { task.cancel() }
        await withDiscardingTaskGroup { group in
            for connection in connections { group.addTask { await connection.close(gracePeriod: gracePeriod, error: error) } }
        }
        for task in tasks { await task.value }
    }

    // MARK: Calls

    /// The connection of the next usable endpoint, waiting for one while none is usable yet
    /// but one may become so.
    private func connection(deadline: ContinuousClock.Instant?) async throws(RPCError) -> HTTP2ClientConnection {
        while true {
            switch update({ $0.pick() }) {
            case .use(let connection):
                return connection
            case .fail(let error):
                throw error
            case .start:
                startEndpoints()
            case .wait:
                try await waitWhileConnecting(until: deadline)
            }
        }
    }

    /// Waits until the state is no longer `.connecting`: an endpoint is usable, every one
    /// failed, or the client closed. Throws DEADLINE_EXCEEDED when `deadline` comes first.
    private func waitWhileConnecting(until deadline: ContinuousClock.Instant?) async throws(RPCError) {
        let settled = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await state in self.states.stream() where state != .connecting { return true }
                return false
            }
            if let deadline {
                group.addTask {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    return false
                }
            }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
        if Task.isCancelled { throw RPCError(.cancelled, "the call was cancelled") }
        if !settled { throw RPCError(.deadlineExceeded, "no endpoint of \(endpoints.count) was ready within the call's timeout") }
    }

    // MARK: Endpoints

    /// Starts one task per endpoint, unless they are started (or the client is closed).
    private func startEndpoints() {
        state.withLock { state in
            guard state.start() else { return }
            // Under the state's lock, so that `close()` finds every task it must end.
            tasks.withLock { tasks in
                tasks = endpoints.indices.map { index in Task { await self.keepConnected(to: index) } }
            }
            states.publish(state.connectionState)
        }
    }

    /// Connects to endpoint `index`, and again, after the backoff, whenever the attempt fails
    /// or the connection is lost, until the client is closed.
    private func keepConnected(to index: Int) async {
        let endpoint = endpoints[index]
        while true {
            let failures: Int?
            do throws(RPCError) {
                let connection = try await HTTP2ClientConnection.connect(
                    host: endpoint.host, port: endpoint.port, configuration: configuration)
                failures = await serve(connection, endpoint: index)
            } catch {
                failures = update { $0.failed(index, error) }
            }
            guard let failures else { return }
            do {
                try await Task.sleep(for: backoff.delay(afterFailures: failures))
            } catch {
                return
            }
            guard update({ $0.attempting(index) }) else { return }
        }
    }

    /// Puts `connection` in the rotation, watching its health when asked to, until it closes
    /// or a call finds it refusing streams; returns the failures to back off after before
    /// connecting again, `nil` once the client is closed.
    private func serve(_ connection: HTTP2ClientConnection, endpoint index: Int) async -> Int? {
        let (lost, end) = AsyncStream.makeStream(of: Void.self)
        connection.whenClosed { end.finish() }
        guard update({ $0.connected(index, connection, health: healthCheck ? nil : .serving, lost: end) }) else {
            await connection.close()
            return nil
        }
        await withDiscardingTaskGroup { group in
            if healthCheck { group.addTask { await self.watchHealth(of: connection, endpoint: index) } }
            for await _ in lost {}
            group.cancelAll()
        }
        return update { $0.lost(connection, index) }
    }

    /// Follows the server's health over `connection` until cancelled: `Health/Watch` for the
    /// server as a whole. A watch that ends leaves the endpoint not serving until a new one,
    /// after the backoff, answers SERVING; a server without the health service is serving.
    private func watchHealth(of connection: HTTP2ClientConnection, endpoint index: Int) async {
        let client = RPCClient(transport: connection)
        var failures = 0
        while !Task.isCancelled {
            do throws(RPCError) {
                for try await answer in try await client.serverStreaming(Health.watch, HealthCheckRequest()) {
                    failures = 0
                    update { $0.heard(answer.status == .serving ? .serving : .notServing, from: connection, index) }
                }
            } catch where error.code == .unimplemented {
                update { $0.heard(.serving, from: connection, index) }
                return
            } catch {}
            if Task.isCancelled { return }
            update { $0.heard(.notServing, from: connection, index) }
            failures += 1
            try? await Task.sleep(for: backoff.delay(afterFailures: failures))
        }
    }

    /// Runs `body` on the state and publishes the connection state it leaves.
    private func update<T>(_ body: (inout RoundRobinState) -> T) -> T {
        state.withLock { state in
            defer { states.publish(state.connectionState) }
            return body(&state)
        }
    }
}
#endif
