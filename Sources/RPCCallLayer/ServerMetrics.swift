import CoreMetrics
import RPCCore
import Synchronization

/// The server's metrics, recorded through swift-metrics into whatever backend the program
/// bootstrapped (nothing when it bootstrapped none):
///
/// - `rpc_server_calls_total{method, status, protocol}`: calls ended, by method path, status
///   name and protocol (`grpc`, `grpc_web` or `connect`).
/// - `rpc_server_call_duration_seconds{method}`: a timer per method, from the request headers
///   to the status.
/// - `rpc_server_connections`, `rpc_server_streams`: connections and streams open now.
/// - `rpc_server_connections_refused_total{reason}`: connections refused by a connection
///   limit, `reason` being `server_limit` or `peer_limit`.
/// - `rpc_server_calls_ended_early_total{reason}`: calls the server ended to free what they
///   held, `reason` being `buffer_budget`, `request_timeout` or `send_stall`.
/// - `rpc_server_connections_closed_total{reason}`: connections the server closed on its own
///   (`ConnectionClose`), `reason` being `head_timeout`, `idle_timeout` or `abuse`.
///
/// The table of methods is made with the server, with the factory in force then; a method's
/// handles once, the first time it records; a call finds its method by `Route.index`, not by
/// name. A path that no method serves counts as `method="unknown"`, so a client cannot add series.
package final class ServerMetrics: Sendable {
    /// Open connections.
    package let connections: Meter
    /// Open streams.
    let streams: Meter
    /// Whether a backend records anything (no program bootstrapped one: nothing to time).
    let isRecording: Bool
    private let refusedForServerLimit: Counter
    private let refusedForPeerLimit: Counter
    private let endedEarly: [EarlyEnd: Counter]
    private let closedConnections: [ConnectionClose: Counter]
    /// By `Route.index`.
    private let methods: [MethodMetrics]
    private let methodsByPath: [String: MethodMetrics]
    private let unknownMethod: MethodMetrics

    package init(router: Router, factory: any MetricsFactory = MetricsSystem.factory) {
        isRecording = !(factory is NOOPMetricsHandler)
        connections = Meter(label: "rpc_server_connections", factory: factory)
        streams = Meter(label: "rpc_server_streams", factory: factory)
        refusedForServerLimit = Counter(
            label: "rpc_server_connections_refused_total", dimensions: [("reason", "server_limit")], factory: factory)
        refusedForPeerLimit = Counter(
            label: "rpc_server_connections_refused_total", dimensions: [("reason", "peer_limit")], factory: factory)
        endedEarly = Dictionary(uniqueKeysWithValues: EarlyEnd.allCases.map { reason in
            (reason, Counter(label: "rpc_server_calls_ended_early_total", dimensions: [("reason", reason.rawValue)], factory: factory))
        })
        closedConnections = Dictionary(uniqueKeysWithValues: ConnectionClose.allCases.map { reason in
            (reason, Counter(label: "rpc_server_connections_closed_total", dimensions: [("reason", reason.rawValue)], factory: factory))
        })
        let routes = router.methods.compactMap { router.route(for: $0.path) }.sorted { $0.index < $1.index }
        precondition(routes.map(\.index) == Array(routes.indices), "route indices are not dense")
        methods = routes.map { MethodMetrics(method: $0.descriptor.path, factory: factory) }
        methodsByPath = Dictionary(uniqueKeysWithValues: methods.map { ($0.method, $0) })
        unknownMethod = MethodMetrics(method: "unknown", factory: factory)
    }

    /// The metrics of the method `route` serves.
    func method(for route: Route) -> MethodMetrics {
        methods[route.index]
    }

    /// The metrics of the method at `path`, for a call answered before it was routed.
    func method(forPath path: String) -> MethodMetrics {
        methodsByPath[path] ?? unknownMethod
    }

    /// Why the server ended a call early.
    package enum EarlyEnd: String, CaseIterable {
        case bufferBudget = "buffer_budget"
        case requestTimeout = "request_timeout"
        case sendStall = "send_stall"
        /// Still running when a shutdown's grace period ended.
        case shutdown
    }

    /// Counts a call the server ended early.
    func endedEarly(_ reason: EarlyEnd) {
        endedEarly[reason]?.increment()
    }

    /// Why the server closed a connection on its own.
    package enum ConnectionClose: String, CaseIterable {
        /// No complete request head within `HTTP2ServerConfiguration.requestHeadTimeout`.
        case headTimeout = "head_timeout"
        /// No call within `HTTP2ServerConfiguration.idleTimeout`.
        case idleTimeout = "idle_timeout"
        /// Past an abuse limit (`AbuseLimits`).
        case abuse
    }

    /// Counts a connection the server closed for `reason`.
    package func closed(_ reason: ConnectionClose) {
        closedConnections[reason]?.increment()
    }

    /// Counts a connection refused by `refusal`.
    package func refused(_ refusal: ConnectionRefusal) {
        switch refusal.limit {
        case .server: refusedForServerLimit.increment()
        case .peer: refusedForPeerLimit.increment()
        }
    }
}

/// The call counters and duration timer of one method, each made the first time it records
/// (so a method never called adds no series).
package final class MethodMetrics: Sendable {
    private struct Handles {
        var duration: Timer?
        /// By protocol, then `StatusCode.rawValue`: at `protocolIndex * 17 + code` (one flat
        /// array, so that storing a handle copies no inner array).
        var calls: [Counter?] = Array(repeating: nil, count: 17 * MethodMetrics.protocols.count)
    }

    /// The protocols calls are counted by, as `ContentType.protocolName` names them.
    static let protocols = ["grpc", "grpc_web", "connect"]

    /// The method's path, or `unknown`.
    let method: String
    private let factory: any MetricsFactory
    private let handles = Mutex(Handles())

    init(method: String, factory: any MetricsFactory) {
        self.method = method
        self.factory = factory
    }

    /// Records a call in `framing`'s protocol that ended with `code` after `elapsed`.
    func record(_ code: StatusCode, after elapsed: Duration, framing: ContentType.Framing) {
        let protocolIndex =
            switch framing {
            case .grpc: 0
            case .grpcWeb, .grpcWebText: 1
            case .connectUnary, .connectStreaming: 2
            }
        let (duration, calls) = handles.withLock { handles in
            let duration = handles.duration ?? makeTimer()
            let slot = protocolIndex * 17 + code.rawValue
            let calls = handles.calls[slot] ?? makeCounter(code, protocol: Self.protocols[protocolIndex])
            handles.duration = duration
            handles.calls[slot] = calls
            return (duration, calls)
        }
        duration.recordNanoseconds(elapsed.nanoseconds)
        calls.increment()
    }

    private func makeTimer() -> Timer {
        Timer(label: "rpc_server_call_duration_seconds", dimensions: [("method", method)], factory: factory)
    }

    private func makeCounter(_ code: StatusCode, protocol name: String) -> Counter {
        Counter(
            label: "rpc_server_calls_total", dimensions: [("method", method), ("status", code.name), ("protocol", name)],
            factory: factory)
    }
}
