import CatalogAPI
import RPCCore
import Synchronization

/// Serves `grpc.health.v1.Health` for the server as a whole (`""`) and each named service.
public final class HealthService: RPCService {
    private struct State {
        var statuses: [String: ServingStatus]
        var watchers: [Int: (service: String, continuation: AsyncStream<ServingStatus>.Continuation)] = [:]
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
        state.withLock { state in
            guard state.statuses[service] != nil, state.statuses[service] != status else { return }
            state.statuses[service] = status
            for watcher in state.watchers.values where watcher.service == service {
                watcher.continuation.yield(status)
            }
        }
    }

    /// Marks the server and every service NOT_SERVING and ends every watch with UNAVAILABLE
    /// (after that last status), so that clients go elsewhere while the server drains.
    public func shutDown() {
        let names = state.withLock { Array($0.statuses.keys) }
        for name in names { setStatus(.notServing, for: name) }
        state.withLock { state in
            state.shuttingDown = true
            for watcher in state.watchers.values { watcher.continuation.finish() }
        }
    }

    public func register(into router: inout Router) {
        router.register(Health.check) { [self] request, _ in
            HealthCheckResponse(status: try status(of: request.service ?? ""))
        }
        router.register(Health.watch) { [self] request, writer, _ in
            let service = request.service ?? ""
            let (updates, continuation) = AsyncStream<ServingStatus>.makeStream(bufferingPolicy: .bufferingNewest(1))
            let id = try state.withLock { state throws(RPCError) -> Int in
                guard let current = state.statuses[service] else { throw Self.unknown(service) }
                if state.shuttingDown { continuation.finish() }
                continuation.yield(current)
                defer { state.nextWatcher += 1 }
                state.watchers[state.nextWatcher] = (service, continuation)
                return state.nextWatcher
            }
            defer { _ = state.withLock { $0.watchers.removeValue(forKey: id) } }
            for await status in updates {
                try await writer.write(HealthCheckResponse(status: status))
            }
            try Task.checkCancellation()
            throw RPCError(.unavailable, "the server is shutting down")
        }
    }

    private func status(of service: String) throws(RPCError) -> ServingStatus {
        guard let status = state.withLock({ $0.statuses[service] }) else { throw Self.unknown(service) }
        return status
    }

    private static func unknown(_ service: String) -> RPCError {
        RPCError(.notFound, "unknown service '\(service)'", detail: ErrorDetail(reason: "unknownService", details: ["id": .string(service)]))
    }
}
