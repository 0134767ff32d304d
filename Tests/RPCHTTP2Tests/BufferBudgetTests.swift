import RPCCore
import Testing

@testable import RPCCallLayer
@testable import RPCHTTP2
@testable import RPCHTTP2Client

/// What a connection holds for unfinished calls stays within its budget and the server's: past
/// it, the largest calls end RESOURCE_EXHAUSTED (reason `bufferBudgetExceeded`) and new ones
/// are refused until it fits again.
@Suite("Buffer budgets", .timeLimit(.minutes(1)))
struct BufferBudgetTests {
    @Test("the pool grants whole requests or nothing, and takes back what is given")
    func pool() {
        let pool = BufferedBytesPool(limit: 100)
        #expect(pool.take(60))
        #expect(!pool.take(41))
        #expect(pool.inUse == 60)
        #expect(pool.take(40))
        pool.give(100)
        #expect(pool.inUse == 0)
    }

    @Test("a connection's first 64 KiB never touch the pool; beyond, whole granules are taken and given back")
    func granules() {
        let granule = BufferedBytes.granule
        let pool = BufferedBytesPool(limit: 10 * granule)
        var buffered = BufferedBytes(limit: 8 * granule, pool: pool)
        buffered.change(by: granule)
        #expect(pool.inUse == 0 && !buffered.isOverBudget)
        buffered.change(by: 1)
        #expect(pool.inUse == granule)
        buffered.change(by: 3 * granule)
        #expect(pool.inUse == 4 * granule)
        buffered.change(by: -(4 * granule + 1))
        #expect(pool.inUse == 0 && buffered.held == 0)
    }

    @Test("over its own limit, or over what the pool grants, a connection is over budget")
    func overBudget() {
        let granule = BufferedBytes.granule
        let pool = BufferedBytesPool(limit: 2 * granule)
        var first = BufferedBytes(limit: 8 * granule, pool: pool)
        first.change(by: 3 * granule)
        #expect(!first.isOverBudget && pool.inUse == 2 * granule)
        var second = BufferedBytes(limit: 8 * granule, pool: pool)
        second.change(by: 2 * granule)
        #expect(second.isOverBudget)  // the pool had nothing left for its second granule
        first.change(by: -3 * granule)
        second.change(by: 1)  // the pool has room again
        #expect(!second.isOverBudget && pool.inUse == 2 * granule)
        second.change(by: 7 * granule)
        #expect(second.isOverBudget)  // past its own limit
    }

    @Test("partial requests past the connection's budget end RESOURCE_EXHAUSTED, the largest first, and the connection serves on")
    func partialRequestsOverBudget() async throws {
        try await withTestServer(configure: { configuration in
            configuration.maxBufferedBytesPerConnection = 256 * 1024
            configuration.requestBodyTimeout = .seconds(2)
        }) { server in
            let connection = try await server.connect()
            // Ten calls each announce a 200 KiB message, send 100 KiB of it and never end.
            let prefix: [UInt8] = [0, 0, 0x03, 0x20, 0x00]
            var calls: [ClientCall] = []
            for _ in 0..<10 {
                let call = try await connection.openCall(Echo.get.descriptor, options: .defaults) as! ClientCall
                try await call.sendFramed(prefix + [UInt8](repeating: 0x20, count: 100 * 1024), endOfStream: false)
                calls.append(call)
            }
            var codes: [StatusCode] = []
            for call in calls {
                let error = try await #require(throws: RPCError.self) { _ = try await call.receive() }
                codes.append(error.code)
                if error.code == .resourceExhausted {
                    #expect(error.detail?.reason == "bufferBudgetExceeded", "\(error)")
                    #expect(error.message.contains("connection") && error.message.contains("262144"), "\(error)")
                }
            }
            // The budget holds two of them; the rest were ended as they pushed it over, and the
            // two left ended when their request timed out.
            let timedOut = codes.filter { $0 == .deadlineExceeded }.count
            #expect((1...2).contains(timedOut), "\(codes)")
            #expect(codes.filter { $0 == .resourceExhausted }.count == 10 - timedOut, "\(codes)")
            let reply = try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "after"))
            #expect(reply.text == "after")
            await connection.close()
        }
    }

    @Test("a call whose header block follows, in the same read, the bytes that pushed the connection over budget is served: the largest call ends first")
    func newCallAfterOverBudgetBytes() async throws {
        try await withTestServer(configure: { $0.maxBufferedBytesPerConnection = 1024 }) { server in
            let port = server.port
            let frames = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                try raw.sendPreface()
                // One write: a call that announces a 4 KiB message and sends 1.2 KiB of it (over
                // the 1 KiB budget), then a whole call, so that both usually arrive in one read.
                let grpc = RawHTTP2Connection.grpcRequestHeaders(path: "/echo.v1.Echo/Get")
                let partial: [UInt8] = [0, 0, 0, 0x10, 0x00] + [UInt8](repeating: 0x20, count: 1200)
                let bytes =
                    Frame(type: .headers, flags: FrameFlags.endHeaders, streamID: 1, payload: RawHTTP2Connection.hpackLiteral(grpc)).encoded
                    + Frame(type: .data, streamID: 1, payload: partial).encoded
                    + Frame(type: .headers, flags: FrameFlags.endHeaders, streamID: 3, payload: RawHTTP2Connection.hpackLiteral(grpc)).encoded
                    + Frame(type: .data, flags: FrameFlags.endStream, streamID: 3, payload: grpcMessage(#"{"text":"next"}"#)).encoded
                try raw.sendRaw(bytes)
                for streamID: UInt32 in [3, 1] {
                    let ended = { (frame: Frame) in frame.streamID == streamID && (frame.isEndStream || frame.type == .rstStream) }
                    if !raw.receivedFrames.contains(where: ended) { _ = try raw.readUntil(ended) }
                }
                return raw.receivedFrames
            }
            // The second call was answered with its message; the first, over the budget, with its
            // status alone (trailers-only).
            #expect(frames.contains { $0.streamID == 3 && $0.type == .data }, "\(frames)")
            #expect(frames.filter { $0.streamID == 1 }.map(\.type) == [.headers], "\(frames)")
        }
    }

    @Test("a request that never ends is DEADLINE_EXCEEDED after the request body timeout, with no grpc-timeout")
    func requestBodyTimeout() async throws {
        try await withTestServer(configure: { $0.requestBodyTimeout = .milliseconds(300) }) { server in
            let connection = try await server.connect()
            for method in [Echo.get.descriptor, Echo.quick.descriptor] {
                let call = try await connection.openCall(method, options: .defaults) as! ClientCall
                try await call.sendFramed([0, 0, 0, 0, 20] + Array(#"{"text":"#.utf8), endOfStream: false)
                let start = ContinuousClock.now
                let error = try await #require(throws: RPCError.self) { _ = try await call.receive() }
                #expect(error.code == .deadlineExceeded, "\(error)")
                #expect(error.message.contains("did not arrive in full"), "\(error)")
                #expect(ContinuousClock.now - start >= .milliseconds(300) - .milliseconds(50))
            }
            let reply = try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "after"))
            #expect(reply.text == "after")
            await connection.close()
        }
    }

    @Test("a call answered before it started, whose request never ends, is reset NO_ERROR after the request body timeout")
    func rejectedCallWithOpenRequest() async throws {
        try await withTestServer(configure: { $0.requestBodyTimeout = .milliseconds(300) }) { server in
            let port = server.port
            let frames = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                try raw.sendPreface()
                try raw.sendHeaders(
                    streamID: 1, headers: RawHTTP2Connection.grpcRequestHeaders(path: "/no.such.v1.Service/Call"), endStream: false)
                _ = try raw.readUntil { $0.type == .rstStream && $0.streamID == 1 }
                try raw.sendEchoGet(streamID: 3, text: "after")
                _ = try raw.readUntil { $0.type == .headers && $0.streamID == 3 && $0.isEndStream }
                return raw.receivedFrames
            }
            let onFirst = frames.filter { $0.streamID == 1 }
            // Answered in full (trailers-only UNIMPLEMENTED), the client is told to stop sending,
            // without error (RFC 9113 §8.1), and nothing else is sent on the stream.
            #expect(onFirst.map(\.type) == [.headers, .rstStream], "\(frames)")
            #expect(onFirst.first?.isEndStream == true, "\(frames)")
            #expect(onFirst.last?.rstStreamErrorCode == HTTP2ErrorCode.noError, "\(frames)")
            #expect(frames.contains { $0.streamID == 3 && $0.type == .data }, "\(frames)")
        }
    }

    @Test("a client that opens no flow-control window gets its calls reset past the budget, then after the stall timeout")
    func zeroWindowReader() async throws {
        try await withTestServer(configure: { configuration in
            configuration.maxBufferedBytesPerConnection = 64 * 1024
            configuration.sendStallTimeout = .milliseconds(500)
        }) { server in
            let port = server.port
            let text = String(repeating: "z", count: 10_000)
            let frames = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                try raw.sendRaw(RawHTTP2Connection.clientPreface)
                try raw.sendSettings([(id: HTTP2SettingID.initialWindowSize, value: 0)])
                for index in 0..<20 { try raw.sendEchoGet(streamID: UInt32(2 * index + 1), text: text) }
                // Every stream ends: reset over the budget or, kept within it, when its bytes stalled.
                var ended = Set<UInt32>()
                while ended.count < 20, let frame = try raw.readUntil({ $0.type == .rstStream || ($0.type == .headers && $0.isEndStream) }) {
                    ended.insert(frame.streamID)
                }
                return raw.receivedFrames
            }
            let resets = frames.filter { $0.type == .rstStream }
            let overBudget = resets.filter { $0.rstStreamErrorCode == HTTP2ErrorCode.enhanceYourCalm }.count
                + frames.filter { $0.type == .headers && $0.isEndStream }.count
            let stalled = resets.filter { $0.rstStreamErrorCode == HTTP2ErrorCode.cancel }.count
            // 64 KiB hold six 10 KB answers (the first one free of the pool): the others are over the budget.
            #expect(overBudget >= 13 && overBudget + stalled == 20, "\(frames)")
            #expect(stalled >= 1, "\(frames)")
            #expect(try await server.servesAnotherConnection())
        }
    }
}
