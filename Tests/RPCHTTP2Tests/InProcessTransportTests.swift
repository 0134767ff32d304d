import InMemoryLogging
import RPCCallLayer
import RPCHTTP2
import RPCInProcess
import Testing

@testable import RPCCore

/// `InProcessTransport`: the echo service's handlers called in the same process, with the
/// semantics of a call over a network (metadata, errors, streams, pulled sources, backpressure,
/// deadlines, cancellation, the authorizer).
@Suite("In-process transport")
struct InProcessTransportTests {
    static func client(probe: EchoProbe = EchoProbe(), authorizer: (any CallAuthorizer)? = nil) -> RPCClient {
        var router = Router()
        router.register(EchoService(probe: probe))
        router.authorizer = authorizer
        return RPCClient(transport: InProcessTransport(router: router))
    }

    @Test("a unary call answers with the message, its headers' and trailers' metadata")
    func unary() async throws {
        let client = Self.client()
        var options = CallOptions()
        options.metadata.add("x-echo", "hello")
        let answer = try await client.unaryResponse(Echo.get, EchoRequest(text: "a", trailers: ["x-t": "1"]), options: options)
        #expect(answer.message == EchoResponse(text: "a"))
        #expect(answer.initialMetadata.first("x-echo") == "hello")
        #expect(answer.trailingMetadata.first("x-t") == "1")
        let inline = try await client.unary(Echo.quick, EchoRequest(text: "q"))
        #expect(inline == EchoResponse(text: "q"), "an inline handler is served the same")
    }

    @Test("a handler's error arrives with its code, message, detail and trailing metadata, cut as on the wire")
    func errors() async throws {
        let client = Self.client()
        let error = try await #require(throws: RPCError.self) {
            try await client.unary(Echo.get, EchoRequest(text: "e", status: 5, message: "no such thing", reason: "notFound", trailers: ["x-t": "2"]))
        }
        #expect(error.code == .notFound)
        #expect(error.message == "no such thing")
        #expect(error.detail?.reason == "notFound")
        #expect(error.metadata.first("x-t") == "2")
        let long = String(repeating: "é", count: 2000)
        let cut = try await #require(throws: RPCError.self) { try await client.unary(Echo.get, EchoRequest(text: "e", status: 3, message: long)) }
        #expect(cut.message == ResponseTrailers(
            headerFields: ResponseTrailers(code: .invalidArgument, message: long).headerFields(detailTrailer: "x-bin"), detailTrailer: "x-bin").message)
        #expect(cut.message.utf8.count < long.utf8.count)
    }

    @Test("streams from a writer and from a pulled source arrive whole and in order, then their end")
    func streams() async throws {
        let client = Self.client()
        var written: [Int] = []
        for try await message in try await client.serverStreaming(Echo.expand, EchoRequest(text: "w", count: 100)) {
            written.append(message.index ?? -1)
        }
        #expect(written == Array(0..<100))
        var pulled: [Int] = []
        let stream = try await client.serverStreaming(Echo.count, EchoRequest(text: "p", count: 100, status: 10, message: "over"))
        let end = await #expect(throws: RPCError.self) {
            for try await message in stream { pulled.append(message.index ?? -1) }
        }
        #expect(pulled == Array(0..<100), "every message before the error")
        #expect(end?.code == .aborted && end?.message == "over")
    }

    @Test("a client that does not read holds a writer back, then gets everything")
    func backpressure() async throws {
        let probe = EchoProbe()
        let client = Self.client(probe: probe)
        // 1 000 messages of 1 KiB: the call's write buffer and the client's window hold about 128.
        let text = String(repeating: "b", count: 1024)
        let stream = try await client.serverStreaming(Echo.expand, EchoRequest(text: text, count: 1000))
        let stalled = try await probe.writtenCountOnceStalled(quiet: .milliseconds(200))
        #expect(stalled < 250, "the writer waits for the reader: \(stalled) written")
        var count = 0
        for try await _ in stream { count += 1 }
        #expect(count == 1000)
    }

    @Test("a deadline ends the call with DEADLINE_EXCEEDED and cancels its handler")
    func deadline() async throws {
        let probe = EchoProbe()
        let client = Self.client(probe: probe)
        // A call whose deadline passes before its handler's task starts is never run: the
        // deadline leaves the handler time to start, which the test sees before it passes.
        let call = Task { try await client.unary(Echo.hang, EchoRequest(text: "d"), options: CallOptions(timeout: .seconds(1))) }
        #expect(await probe.next { $0 == .started("d") } != nil)
        let error = await #expect(throws: RPCError.self) { try await call.value }
        #expect(error?.code == .deadlineExceeded)
        #expect(await probe.next { $0 == .cancelled("d") } != nil)
    }

    @Test("cancelling the calling task, or a stream, cancels the handler or closes the source")
    func cancellation() async throws {
        let probe = EchoProbe()
        let client = Self.client(probe: probe)
        let call = Task { try await client.unary(Echo.hang, EchoRequest(text: "c")) }
        #expect(await probe.next { $0 == .started("c") } != nil)
        call.cancel()
        #expect(await probe.next { $0 == .cancelled("c") } != nil)
        let error = await #expect(throws: RPCError.self) { try await call.value }
        #expect(error?.code == .cancelled)

        let stream = try await client.serverStreaming(Echo.count, EchoRequest(text: "s", count: 1_000_000))
        var iterator = stream.makeAsyncIterator()
        for _ in 0..<3 { _ = try await iterator.next() }
        stream.cancel()
        #expect(await probe.next { $0 == .cancelled("s") } != nil, "the source is told the stream closed")
    }

    @Test("an unknown method is UNIMPLEMENTED, and the authorizer's refusal comes before any handler")
    func refusals() async throws {
        struct RefuseHang: CallAuthorizer {
            func authorize(_ head: RequestHead, for method: MethodDescriptor) -> CallAuthorization {
                method.path == Echo.hang.descriptor.path ? .refuse(RPCError(.permissionDenied, "not you"), caller: "x") : .allow(caller: "x")
            }
        }
        let probe = EchoProbe()
        let client = Self.client(probe: probe, authorizer: RefuseHang())
        let unknown = UnaryMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Nope")
        let missing = try await #require(throws: RPCError.self) { try await client.unary(unknown, EchoRequest(text: "u")) }
        #expect(missing.code == .unimplemented)
        let refused = try await #require(throws: RPCError.self) { try await client.unary(Echo.hang, EchoRequest(text: "r")) }
        #expect(refused.code == .permissionDenied && refused.message == "not you")
        #expect(try await client.unary(Echo.get, EchoRequest(text: "ok")) == EchoResponse(text: "ok"))
        #expect(await probe.next(timeout: .milliseconds(100)) { $0 == .started("r") } == nil, "the refused handler never started")
    }

    @Test("calls go through the server's call layer: its header limit, its access log, its execution policy")
    func callLayer() async throws {
        let log = InMemoryLogHandler()
        var router = Router()
        router.register(EchoService(probe: EchoProbe()))
        let client = RPCClient(transport: InProcessTransport(router: router, accessLogLevel: .info, logger: log.logger))
        var options = CallOptions()
        options.metadata.add("x-large", String(repeating: "m", count: 20 * 1024))
        let refused = try await #require(throws: RPCError.self) { try await client.unary(Echo.get, EchoRequest(text: "big"), options: options) }
        #expect(refused.code == .resourceExhausted && refused.message.contains("header list"), "\(refused)")
        #expect(try await client.unary(Echo.quick, EchoRequest(text: "inline")) == EchoResponse(text: "inline"))
        #expect(try await client.unary(Echo.get, EchoRequest(text: "task")) == EchoResponse(text: "task"))
        let calls = log.calls
        #expect(calls.map { $0["status"] } == ["RESOURCE_EXHAUSTED", "OK", "OK"], "\(log.entries)")
        // Past the limit the whole head is dropped, its path too, as over a network.
        #expect(calls.map { $0["method"] } == ["", "/echo.v1.Echo/Quick", "/echo.v1.Echo/Get"])
        #expect(calls.allSatisfy { $0["peer"] == "in-process" }, "\(calls)")
        #expect(calls.last?["request_bytes"] == "\(5 + #"{"text":"task"}"#.utf8.count)", "framed as on the wire")
    }

    @Test("an in-process call's limits are a server's defaults")
    func defaults() {
        #expect(HTTP2ServerConfiguration.defaults.callLayer == CallLayerConfiguration.defaults)
    }
}
