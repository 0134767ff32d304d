import InMemoryLogging
import Logging
import RPCCore
import RPCHTTP2
import Synchronization
import Testing

/// `Router.interceptors` over real HTTP/2 connections: in order around every kind of handler
/// (async, inline without `async`, writer streams, pulled sources), with the request's metadata
/// and caller, adding response metadata, seeing each end, refusing a call before its handler;
/// and the access log's trace id from a W3C `traceparent`.
@Suite("Server interceptors", .timeLimit(.minutes(1)))
struct ServerInterceptorTests {
    @Test("two interceptors run first-outermost around each kind of handler and see how it ended")
    func order() async throws {
        let trace = Trace()
        try await withTestServer(interceptors: [Recording(name: "a", trace: trace), Recording(name: "b", trace: trace)]) { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            for method in [Echo.get, Echo.quick] {
                trace.lines.withLock { $0 = [] }
                #expect(try await client.unary(method, EchoRequest(text: "hi")).text == "hi")
                let name = method.descriptor.method
                #expect(trace.lines.withLock { $0 } == ["a> \(name)", "b> \(name)", "b< ok", "a< ok"], "\(name)")
            }
            trace.lines.withLock { $0 = [] }
            _ = try? await client.unary(Echo.quick, EchoRequest(text: "x", status: 5, message: "gone"))
            #expect(trace.lines.withLock { $0 } == ["a> Quick", "b> Quick", "b< NOT_FOUND", "a< NOT_FOUND"])
            for method in [Echo.expand, Echo.count] {
                trace.lines.withLock { $0 = [] }
                var received = 0
                for try await _ in try await client.serverStreaming(method, EchoRequest(text: "s", count: 3)) { received += 1 }
                #expect(received == 3)
                let name = method.descriptor.method
                #expect(trace.lines.withLock { $0 } == ["a> \(name)", "b> \(name)", "b< ok", "a< ok"], "\(name)")
            }
            await connection.close()
        }
    }

    @Test("an interceptor reads the request metadata, adds response metadata, and refuses a call before its handler runs")
    func metadataAndRefusal() async throws {
        let inner = Trace()
        try await withTestServer(interceptors: [RequireTenant(), Recording(name: "inner", trace: inner)]) { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            var options = CallOptions()
            options.metadata.add("x-tenant", "acme")
            let response = try await client.unaryResponse(Echo.quick, EchoRequest(text: "hi"), options: options)
            #expect(response.initialMetadata.first("x-tenant-seen") == "acme")

            let refused = try await #require(throws: RPCError.self) {
                try await client.unary(Echo.get, EchoRequest(text: "anonymous"))
            }
            #expect(refused.code == .permissionDenied && refused.message == "no tenant")
            #expect(inner.lines.withLock { $0 } == ["inner> Quick", "inner< ok"], "nothing after the refusing interceptor ran")
            await connection.close()
        }
    }

    @Test("the access log carries the trace id of a well-formed traceparent, and none of a malformed one")
    func traceIDInAccessLog() async throws {
        let log = InMemoryLogHandler()
        let traceParent = TraceParent(traceID: "4bf92f3577b34da6a3ce929d0e0e4736", parentID: "00f067aa0ba902b7", flags: 1)
        try await withTestServer(configure: { $0.accessLogLevel = .info }, logger: log.logger) { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            var traced = CallOptions()
            traced.metadata.add(TraceParent.headerName, traceParent.description)
            _ = try await client.unary(Echo.get, EchoRequest(text: "traced"), options: traced)
            var malformed = CallOptions()
            malformed.metadata.add(TraceParent.headerName, "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01")
            _ = try await client.unary(Echo.get, EchoRequest(text: "malformed"), options: malformed)
            _ = try await client.unary(Echo.get, EchoRequest(text: "untraced"))
            await connection.close()
        }
        #expect(log.calls.map { $0["trace_id"] } == ["4bf92f3577b34da6a3ce929d0e0e4736", nil, nil])
    }

    @Test("traceparent values parse as the W3C specification says", arguments: [
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", true),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", true),
        ("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future", true),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", false),
        ("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", false),
        ("00-00000000000000000000000000000000-00f067aa0ba902b7-01", false),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", false),
        ("00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01", false),
        ("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", false),
        ("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", false),
        ("", false),
    ])
    func traceParentParsing(value: String, wellFormed: Bool) {
        let parsed = TraceParent(value)
        #expect((parsed != nil) == wellFormed, "\(value)")
        if let parsed, value.hasPrefix("00-") {
            #expect(parsed.description == value, "prints back as it was sent")
        }
    }
}

/// What the recording interceptors saw, in order.
private final class Trace: Sendable {
    let lines = Mutex<[String]>([])
}

/// Records when a call enters it and how its handler ended.
private struct Recording: ServerInterceptor {
    let name: String
    let trace: Trace

    func intercept(_ context: ServerContext, next: () async throws -> Void) async throws {
        trace.lines.withLock { $0.append("\(name)> \(context.method.method)") }
        do {
            try await next()
            trace.lines.withLock { $0.append("\(name)< ok") }
        } catch {
            trace.lines.withLock { $0.append("\(name)< \(RPCError(mapping: error).code.name)") }
            throw error
        }
    }
}

/// Refuses calls without an `x-tenant`, and tells the client which tenant it saw.
private struct RequireTenant: ServerInterceptor {
    func intercept(_ context: ServerContext, next: () async throws -> Void) async throws {
        guard let tenant = context.requestMetadata.first("x-tenant") else {
            throw RPCError(.permissionDenied, "no tenant")
        }
        context.addInitialMetadata("x-tenant-seen", .string(tenant))
        try await next()
    }
}
