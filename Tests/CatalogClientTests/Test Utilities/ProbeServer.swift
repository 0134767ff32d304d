import CatalogAPI
import Foundation
import HTTP2TestSupport
import Logging
import RPCCore
import RPCHTTP2
import Synchronization
import TestSupport

/// What the probe server saw: calls per path, and cancelled handlers.
final class Probe: Sendable {
    private struct State {
        var calls: [String: Int] = [:]
        var cancelledSleeps = 0
        var unavailableListsLeft = 0
    }

    private let state = Mutex(State())

    /// How many calls reached `method`.
    func calls<Request, Response>(_ method: UnaryMethod<Request, Response>) -> Int {
        state.withLock { $0.calls[method.descriptor.path] ?? 0 }
    }

    /// How many `Health/Check {service: "sleep"}` handlers were cancelled.
    var cancelledSleeps: Int { state.withLock { $0.cancelledSleeps } }

    /// Makes the next `count` calls of `Categories/List` fail with UNAVAILABLE.
    func failLists(_ count: Int) { state.withLock { $0.unavailableListsLeft = count } }

    fileprivate func record(_ path: String) { state.withLock { $0.calls[path, default: 0] += 1 } }
    fileprivate func recordCancelledSleep() { state.withLock { $0.cancelledSleeps += 1 } }
    fileprivate func takeListFailure() -> Bool {
        state.withLock { state in
            guard state.unavailableListsLeft > 0 else { return false }
            state.unavailableListsLeft -= 1
            return true
        }
    }
}

/// Runs a server that answers some `catalog.v1` and Health paths with scripted behaviour
/// while `body` runs, to observe what the client sends and how often:
///
/// - `Health/Check`: `service: "sleep"` sleeps 30 s (a cancelled sleep is counted); any
///   other service name answers the value of that request-metadata key as the status
///   (`"-"` when absent), e.g. `service: "authorization"`.
/// - `Categories/List`: UNAVAILABLE while `Probe.failLists` says so, then an empty list.
/// - `Categories/Create`: always UNAVAILABLE. `Categories/Get`: always NOT_FOUND.
func withProbeServer<T>(_ body: (_ port: Int, _ probe: Probe) async throws -> T) async throws -> T {
    let probe = Probe()
    var router = Router()
    router.register(Health.check, .unary { request, context in
        probe.record(Health.check.descriptor.path)
        guard request.service == "sleep" else {
            return HealthCheckResponse(status: ServingStatus(rawValue: context.requestMetadata.first(request.service ?? "") ?? "-"))
        }
        do {
            try await Task.sleep(for: .seconds(30))
        } catch {
            probe.recordCancelledSleep()
            throw error
        }
        return HealthCheckResponse(status: .serving)
    })
    router.register(CategoriesService.list, .unary { _, _ in
        probe.record(CategoriesService.list.descriptor.path)
        if probe.takeListFailure() { throw RPCError(.unavailable, "scripted outage") }
        return CategoryList(categories: [])
    })
    router.register(CategoriesService.create, .unary { _, _ in
        probe.record(CategoriesService.create.descriptor.path)
        throw RPCError(.unavailable, "scripted outage")
    })
    router.register(CategoriesService.get, .unary { request, _ in
        probe.record(CategoriesService.get.descriptor.path)
        throw RPCError(.notFound, "no category \(request.id)", detail: ErrorDetail(reason: "notFound", details: ["id": .number(Double(request.id))]))
    })
    var configuration = HTTP2ServerConfiguration.defaults
    configuration.errorDetailNames = .catalog  // as catalogd's
    configuration.port = 0
    let server = HTTP2Server(router: router, configuration: configuration, logger: quietLogger("test.probe"))
    return try await whileServing(server) { port in try await body(port, probe) }
}
