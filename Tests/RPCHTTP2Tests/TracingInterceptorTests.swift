import InMemoryTracing
import RPCCore
import RPCHTTP2
import RPCTracing
import ServiceContextModule
import Tracing
import Testing

/// `TracingClientInterceptor` and `TracingServerInterceptor` over a real HTTP/2 connection,
/// with swift-distributed-tracing's in-memory tracer on both sides: one trace, the server's
/// span a child of the client's, the RPC attributes and the status.
@Suite("Tracing interceptors", .timeLimit(.minutes(1)))
struct TracingInterceptorTests {
    @Test("a call makes a client span and a server span of one trace, the server's the child; a failure is recorded on both")
    func spans() async throws {
        let tracer = InMemoryTracer()
        try await withTestServer(interceptors: [TracingServerInterceptor(tracer: tracer)]) { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection, interceptors: [TracingClientInterceptor(tracer: tracer)])
            #expect(try await client.unary(Echo.get, EchoRequest(text: "hi")).text == "hi")
            _ = try? await client.unary(Echo.quick, EchoRequest(text: "x", status: 5, message: "gone"))
            await connection.close()
        }
        let spans = tracer.finishedSpans
        #expect(spans.count == 4)
        let clients = spans.filter { $0.kind == .client }
        let servers = spans.filter { $0.kind == .server }
        #expect(clients.map(\.operationName) == ["echo.v1.Echo/Get", "echo.v1.Echo/Quick"])
        #expect(servers.map(\.operationName).sorted() == ["echo.v1.Echo/Get", "echo.v1.Echo/Quick"])
        for clientSpan in clients {
            let serverSpan = try #require(servers.first { $0.operationName == clientSpan.operationName })
            #expect(serverSpan.traceID == clientSpan.traceID, "one trace")
            #expect(serverSpan.parentSpanID == clientSpan.spanID, "the server's span is the client's child")
            #expect(clientSpan.attributes["rpc.system"]?.toSpanAttribute() == "grpc")
            #expect(serverSpan.attributes["rpc.service"]?.toSpanAttribute() == "echo.v1.Echo")
        }
        let failed = spans.filter { $0.operationName == "echo.v1.Echo/Quick" }
        #expect(failed.allSatisfy { $0.attributes["rpc.grpc.status_code"]?.toSpanAttribute() == .int64(5) })
        #expect(failed.allSatisfy { $0.status?.code == .error && $0.errors.count == 1 })
        let succeeded = spans.filter { $0.operationName == "echo.v1.Echo/Get" }
        #expect(succeeded.allSatisfy { $0.attributes["rpc.grpc.status_code"]?.toSpanAttribute() == .int64(0) && $0.status == nil })
    }

    @Test("the client span is a child of the task's current span")
    func parentFromTask() async throws {
        let tracer = InMemoryTracer()
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection, interceptors: [TracingClientInterceptor(tracer: tracer)])
            let parent = tracer.startSpan("load screen")
            try await ServiceContext.withValue(parent.context) {
                _ = try await client.unary(Echo.get, EchoRequest(text: "hi"))
            }
            parent.end()
            await connection.close()
        }
        let call = try #require(tracer.finishedSpans.first { $0.kind == .client })
        let screen = try #require(tracer.finishedSpans.first { $0.operationName == "load screen" })
        #expect(call.traceID == screen.traceID && call.parentSpanID == screen.spanID)
    }
}
