import CatalogAPI
import CatalogKit
import CatalogTesting
import Foundation
import Logging
import MetricsTestKit
import RPCCore
import RPCInProcess
import Synchronization
import TestSupport
import Testing

/// `Configuration.interceptors` and `CatalogClient.withResponse(_:)`: interceptors run in
/// order around every kind of call, change its metadata, see how it ended, refuse it or retry
/// it; the shipped logging and metrics interceptors record what happened; a typed call's
/// response metadata is at hand.
@Suite("Client interceptors and response metadata")
struct ClientInterceptorTests {
    @Test("interceptors run first-outermost around unary calls, Watch streams and raw calls, and see each to its end")
    func order() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let trace = Trace()
        var configuration = CatalogClient.Configuration.defaults
        configuration.interceptors = [Recording(name: "a", trace: trace), Recording(name: "b", trace: trace)]
        let client = catalog.newClient(configuration: configuration)

        _ = try await client.items.get(id: 1)
        #expect(trace.lines.withLock { $0 } == ["a> GetItem", "b> GetItem", "b< OK", "a< OK"])
        trace.lines.withLock { $0 = [] }
        _ = try? await client.items.get(id: 9_999)
        #expect(trace.lines.withLock { $0 } == ["a> GetItem", "b> GetItem", "b< NOT_FOUND", "a< NOT_FOUND"])
        trace.lines.withLock { $0 = [] }
        let (first, firstInput) = AsyncStream.makeStream(of: FilterEvent.Kind?.self)
        let watching = Task {
            for try await event in client.filters.watch("categories") { firstInput.yield(event.kind) }
        }
        var firstEvents = first.makeAsyncIterator()
        #expect(await firstEvents.next() == .snapshot)
        #expect(trace.lines.withLock { $0 } == ["a> Watch", "b> Watch"], "the stream is open, not ended")
        watching.cancel()
        _ = await watching.result
        try await eventually("the interceptors saw the Watch end") { trace.lines.withLock { $0.count } == 4 }
        #expect(trace.lines.withLock { $0 } == ["a> Watch", "b> Watch", "b< CANCELLED", "a< CANCELLED"])
        trace.lines.withLock { $0 = [] }
        for try await _ in try await client.raw.call("catalog.v1.Categories/List", request: []) {}
        #expect(trace.lines.withLock { $0 } == ["a> List", "b> List", "b< OK", "a< OK"])
        await catalog.close()
    }

    @Test("request metadata an interceptor adds reaches the handler; the handler's response metadata reaches withResponse")
    func metadataBothWays() async throws {
        var router = Router()
        router.register(CatalogService.getItem, .unary { request, context in
            context.addInitialMetadata("x-echo-request-id", .string(context.requestMetadata.first("x-request-id") ?? "none"))
            context.addTrailingMetadata("x-served-by", "replica-a")
            let now = Date()
            return Item(id: request.id, title: "Echo", createdAt: now, updatedAt: now)
        })
        var configuration = CatalogClient.Configuration.defaults
        configuration.interceptors = [RequestID(value: "req-7")]
        let client = CatalogClient(transport: InProcessTransport(router: router), configuration: configuration)

        let response = try await client.withResponse { try await $0.items.get(id: 42) }
        #expect(response.message.id == 42 && response.message.title == "Echo")
        #expect(response.initialMetadata.first("x-echo-request-id") == "req-7")
        #expect(response.trailingMetadata.first("x-served-by") == "replica-a")

        let plain = CatalogClient(transport: InProcessTransport(router: router))
        let without = try await plain.withResponse { try await $0.items.get(id: 1) }
        #expect(without.initialMetadata.first("x-echo-request-id") == "none", "no interceptor, no request id")
        let none = try await plain.withResponse { _ in 5 }
        #expect(none.message == 5 && none.initialMetadata.isEmpty && none.trailingMetadata.isEmpty)
    }

    @Test("an interceptor retries a call refused UNAUTHENTICATED once, with a fresh token; one that throws stops a write")
    func retryAndRefuse() async throws {
        let catalog = try await InProcessCatalog.start(tokens: [("app", .writer, "fresh-secret")])
        let attempts = Attempts()
        var configuration = CatalogClient.Configuration.defaults
        configuration.interceptors = [RefreshOnUnauthenticated(fresh: "fresh-secret", attempts: attempts)]
        let client = catalog.newClient(bearerToken: "expired-secret", configuration: configuration)
        let state = try await client.filters.select("categories", optionId: 2)
        #expect(state.selectedId == 2)
        #expect(attempts.count.load(ordering: .relaxed) == 2, "refused once, then sent again")

        var readOnly = CatalogClient.Configuration.defaults
        readOnly.interceptors = [ReadOnlyMode()]
        let guarded = catalog.newClient(bearerToken: "fresh-secret", configuration: readOnly)
        let refused = try await #require(throws: RPCError.self) { try await guarded.categories.create(name: "Never") }
        #expect(refused.code == .failedPrecondition && refused.message == "read-only mode")
        #expect(try await guarded.categories.list().contains { $0.name == "Never" } == false, "the write never reached the server")
        await catalog.close()
    }

    @Test("the logging and metrics interceptors record each call's method, code and duration")
    func loggingAndMetrics() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let lines = LogLines()
        let metrics = TestMetrics()
        var logger = Logger(label: "test.client") { _ in lines }
        logger.logLevel = .debug
        var configuration = CatalogClient.Configuration.defaults
        configuration.interceptors = [LoggingInterceptor(logger: logger), MetricsInterceptor(factory: metrics)]
        let client = catalog.newClient(configuration: configuration)
        _ = try await client.items.get(id: 1)
        _ = try? await client.items.get(id: 9_999)

        let logged = lines.entries.withLock { $0 }
        #expect(logged.count == 2)
        #expect(logged.first?.level == .debug && logged.first?.metadata["rpc.code"] == "OK")
        #expect(logged.first?.metadata["rpc.method"] == "/catalog.v1.Catalog/GetItem")
        #expect(logged.last?.level == .info && logged.last?.metadata["rpc.code"] == "NOT_FOUND")
        #expect(logged.last?.metadata["rpc.reason"] == "notFound")
        #expect(logged.allSatisfy { Double($0.metadata["rpc.duration_ms"] ?? "") != nil })

        let ok = try metrics.expectCounter("rpc_client_calls_total", [("method", "/catalog.v1.Catalog/GetItem"), ("code", "OK")])
        let missing = try metrics.expectCounter("rpc_client_calls_total", [("method", "/catalog.v1.Catalog/GetItem"), ("code", "NOT_FOUND")])
        #expect(ok.totalValue == 1 && missing.totalValue == 1)
        let timer = try metrics.expectTimer("rpc_client_duration_seconds", [("method", "/catalog.v1.Catalog/GetItem"), ("code", "OK")])
        #expect(timer.values.count == 1 && timer.values[0] > 0)
        await catalog.close()
    }
}

/// What the recording interceptors saw, in order.
private final class Trace: Sendable {
    let lines = Mutex<[String]>([])
}

/// How many times a call was sent.
private final class Attempts: Sendable {
    let count = Atomic(0)
}

/// Records when a call enters it and how it left it.
private struct Recording: ClientInterceptor {
    let name: String
    let trace: Trace

    func intercept<Output: Sendable>(
        _ call: ClientCallContext,
        next: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        trace.lines.withLock { $0.append("\(name)> \(call.method.method)") }
        do {
            let output = try await next(call)
            trace.lines.withLock { $0.append("\(name)< OK") }
            return output
        } catch {
            trace.lines.withLock { $0.append("\(name)< \(error.code.name)") }
            throw error
        }
    }
}

/// Adds a request id to each call.
private struct RequestID: ClientInterceptor {
    let value: String

    func intercept<Output: Sendable>(
        _ call: ClientCallContext,
        next: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        var call = call
        call.options.metadata.add("x-request-id", value)
        return try await next(call)
    }
}

/// Sends a call again with a fresh token when the server refused its token.
private struct RefreshOnUnauthenticated: ClientInterceptor {
    let fresh: String
    let attempts: Attempts

    func intercept<Output: Sendable>(
        _ call: ClientCallContext,
        next: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        attempts.count.add(1, ordering: .relaxed)
        do {
            return try await next(call)
        } catch where error.code == .unauthenticated {
            var call = call
            call.options.bearerToken = fresh
            attempts.count.add(1, ordering: .relaxed)
            return try await next(call)
        }
    }
}

/// Refuses every write before it is sent.
private struct ReadOnlyMode: ClientInterceptor {
    func intercept<Output: Sendable>(
        _ call: ClientCallContext,
        next: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        guard ["List", "Get", "GetItem", "ListItems", "Watch"].contains(call.method.method) else {
            throw RPCError(.failedPrecondition, "read-only mode")
        }
        return try await next(call)
    }
}

/// A log handler that keeps what it was given.
private final class LogLines: LogHandler, Sendable {
    struct Entry: Sendable {
        var level: Logger.Level
        var metadata: [String: String]
    }

    let entries = Mutex<[Entry]>([])

    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        let flattened = (event.metadata ?? [:]).mapValues { "\($0)" }
        entries.withLock { $0.append(Entry(level: event.level, metadata: flattened)) }
    }
}
