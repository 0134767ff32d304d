import CatalogKit
import CatalogTesting
import ClientCallTiming
import Foundation
import Logging

// interceptor-benchmark [ROUNDS] [N]: GetItem {"id": 42} N times one after another through a
// CatalogClient over the InProcessTransport (the demo catalog in this process), where a call
// costs least and an interceptor's share shows most: with no interceptor, and with three
// (one adding a request id, LoggingInterceptor whose logger drops its level, MetricsInterceptor
// on swift-metrics' default no-op backend), the two taking turns going first; prints one line
// a round, then the medians of the time a call, their difference and their ratio.

let arguments = CommandLine.arguments
let rounds = arguments.count > 1 ? Int(arguments[1]) ?? 5 : 5
let calls = arguments.count > 2 ? Int(arguments[2]) ?? 20_000 : 20_000

/// Adds a request id, as a team's own interceptor would.
struct RequestID: ClientInterceptor {
    func intercept<Output: Sendable>(
        _ call: ClientCallContext,
        next: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        var call = call
        call.options.metadata.add("x-request-id", "benchmark")
        return try await next(call)
    }
}

var logger = Logger(label: "benchmark")
logger.logLevel = .info
var intercepted = CatalogClient.Configuration.defaults
intercepted.interceptors = [RequestID(), LoggingInterceptor(logger: logger), MetricsInterceptor()]
let catalog = try await InProcessCatalog.start(seedDemo: true)
let bare = catalog.client
let chained = catalog.newClient(configuration: intercepted)
let (none, three) = try await compare(("none", bare), ("three", chained), labelKey: "interceptors", rounds: rounds, calls: calls)
print(String(format: "median no interceptor %.2f us, three %.2f us, difference %.2f us, ratio %.3f", none, three, three - none, three / none))
await catalog.close()
