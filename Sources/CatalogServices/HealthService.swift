import CatalogAPI
import CatalogStore
import RPCCore
import Synchronization

/// Serves `grpc.health.v1.Health` for the server as a whole (`""`) and each named service.
public final class HealthService: RPCService {
    private struct State {
        var statuses: [String: ServingStatus]
        var watchers: [Int: (service: String, source: HealthWatchSource)] = [:]
        var nextWatcher = 0
        var shuttingDown = false
    }

    private let state: Mutex<State>

    /// - Parameter services: the service names that health checks know, all SERVING.
    public init(services: [String]) {
        var statuses = [String: ServingStatus]()
        for name in services + [""] { statuses[name] = .serving }
        state = Mutex(State(statuses: statuses))
    }

    /// Changes a known service's status (or the server's, with `""`) and tells its watchers.
    public func setStatus(_ status: ServingStatus, for service: String = "") {
        state.withLock { Self.set(status, for: service, in: &$0) }
    }

    /// Sets the server and every service SERVING or NOT_SERVING, as what they depend on (the
    /// store's database) comes and goes; nothing once the server is shutting down.
    public func setServing(_ serving: Bool) {
        state.withLock { state in
            guard !state.shuttingDown else { return }
            for service in Array(state.statuses.keys) { Self.set(serving ? .serving : .notServing, for: service, in: &state) }
        }
    }

    private static func set(_ status: ServingStatus, for service: String, in state: inout State) {
        guard state.statuses[service] != nil, state.statuses[service] != status else { return }
        state.statuses[service] = status
        for watcher in state.watchers.values where watcher.service == service {
            watcher.source.offer(status)
        }
    }

    /// Marks the server and every service NOT_SERVING and ends every watch with UNAVAILABLE
    /// (after that last status), so that clients go elsewhere while the server drains.
    public func shutDown() {
        state.withLock { state in
            // In one step with the flag, so that no `setServing` comes between.
            for service in Array(state.statuses.keys) { Self.set(.notServing, for: service, in: &state) }
            state.shuttingDown = true
            for watcher in state.watchers.values { watcher.source.end() }
        }
    }

    public func register(into router: inout Router) {
        router.register(Health.check, .unary(.inline) { [self] request, _ in
            HealthCheckResponse(status: try status(of: request.service ?? ""))
        })
        router.register(Health.watch, .serverStreaming(.inline, source: { [self] (request: HealthCheckRequest, context, waker) -> any ResponseSource in
            let service = request.service ?? ""
            return try state.withLock { state throws(RPCError) -> HealthWatchSource in
                guard let current = state.statuses[service] else { throw Self.unknown(service) }
                let id = state.nextWatcher
                state.nextWatcher += 1
                let source = HealthWatchSource(current: current, codec: context.contentType.codec, waker: waker) { [weak self] in
                    _ = self?.state.withLock { $0.watchers.removeValue(forKey: id) }
                }
                if state.shuttingDown { source.end() }
                state.watchers[id] = (service, source)
                return source
            }
        }))
    }

    private func status(of service: String) throws(RPCError) -> ServingStatus {
        guard let status = state.withLock({ $0.statuses[service] }) else { throw Self.unknown(service) }
        return status
    }

    private static func unknown(_ service: String) -> RPCError {
        RPCError(.notFound, "unknown service '\(service)'", detail: ErrorDetail(reason: "unknownService", details: ["id": .string(service)]))
    }
}
