import RPCCallLayer
import RPCCore
import RPCHTTP2
import Testing

/// Floods and other protocol abuse over a raw HTTP/2 connection: the offender gets a GOAWAY
/// and is closed, while a bystander connection opened before keeps being served.
///
/// The raw client blocks its thread, so each raw exchange runs in `runBlocking`.
@Suite("Protocol abuse closes only the offending connection", .timeLimit(.minutes(3)))
struct AbuseTests {
    @Test("a rapid-reset flood (HEADERS then RST_STREAM, CVE-2023-44487) gets GOAWAY ENHANCE_YOUR_CALM")
    func rapidReset() async throws {
        // A slow refill, so that however slowly a loaded machine reads the flood, the guard
        // trips long before its end.
        let (_, goAway) = try await calmedFlood(configure: { configuration in
            configuration.maxConcurrentStreams = 100
            configuration.abuseLimits.resets = RateLimit(burst: 100, perSecond: 5)
        }, count: 2000) { index in
            let stream = UInt32(2 * index + 1)
            let headers = Frame(
                type: .headers, flags: FrameFlags.endHeaders, streamID: stream,
                payload: RawHTTP2Connection.hpackLiteral(RawHTTP2Connection.grpcRequestHeaders(path: "/echo.v1.Echo/Hang")))
            let reset = Frame(type: .rstStream, streamID: stream, payload: [0, 0, 0, UInt8(HTTP2ErrorCode.cancel)])
            return headers.encoded + reset.encoded
        }
        // The guard allows a burst of 100 resets plus 5/s: the flood of 2000 was cut short.
        #expect(goAway.goAwayLastStreamID.map { $0 < 2 * 1000 } == true, "\(goAway)")
    }

    /// A rapid-reset flood's requests and resets arrive in one read: its calls are gone before
    /// the connection gets to them, and must cost no task and no handler. An inline call is
    /// answered once the read that completed its request is processed, so it is gone too.
    @Test(
        "calls reset in the same read as their request never start their handler",
        arguments: [
            (reset: "/echo.v1.Echo/Hang", kept: "/echo.v1.Echo/Get", keptBody: #"{"text":"kept","sleepMs":1}"#),
            (reset: "/echo.v1.Echo/Quick", kept: "/echo.v1.Echo/Quick", keptBody: #"{"text":"kept"}"#),
        ])
    func callsResetBeforeTheirTurn(reset: String, kept: String, keptBody: String) async throws {
        try await withTestServer { server in
            let port = server.port
            try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                try raw.sendPreface()
                let block = RawHTTP2Connection.hpackLiteral(RawHTTP2Connection.grpcRequestHeaders(path: reset))
                let resetCalls = (0..<5).flatMap { index in
                    let stream = UInt32(2 * index + 1)
                    return Frame(type: .headers, flags: FrameFlags.endHeaders, streamID: stream, payload: block).encoded
                        + Frame(type: .data, flags: FrameFlags.endStream, streamID: stream,
                                payload: grpcMessage(#"{"text":"reset \#(index)"}"#)).encoded
                        + Frame(type: .rstStream, streamID: stream, payload: [0, 0, 0, UInt8(HTTP2ErrorCode.cancel)]).encoded
                }
                try raw.sendRaw(resetCalls)
                try raw.sendHeaders(streamID: 11, headers: RawHTTP2Connection.grpcRequestHeaders(path: kept), endStream: false)
                try raw.sendData(streamID: 11, grpcMessage(keptBody), endStream: true)
                let answer = try raw.readUntil { $0.streamID == 11 && $0.isEndStream }
                try check(answer?.type == .headers, "the kept call was not answered: \(raw.receivedFrames)")
                let answeredReset = raw.receivedFrames.filter { $0.streamID != 0 && $0.streamID < 11 }
                try check(answeredReset.isEmpty, "reset calls were answered: \(answeredReset)")
            }
            // The reset calls were queued before the kept one, which has been answered.
            let resetStarted = await server.probe.next(timeout: .seconds(1)) { event in
                if case .started(let text) = event { text.hasPrefix("reset") } else { false }
            }
            #expect(resetStarted == nil)
        }
    }

    @Test("cancelling many streams that were already being answered is not a flood")
    func cancelsOfAnsweredStreams() async throws {
        try await withTestServer(configure: { configuration in
            configuration.maxConcurrentStreams = 50
            configuration.abuseLimits.resets = RateLimit(burst: 50, perSecond: 1)
        }) { server in
            // Small windows: the server fills each stream's at once, and unread bytes that were
            // never credited back would soon exhaust the connection's.
            var small = HTTP2ClientConfiguration.defaults
            small.streamWindowSize = 1024
            small.connectionWindowSize = 65_535
            let connection = try await server.connect(small)
            let client = RPCClient(transport: connection)
            // 150 cancels against a burst of 50 and 1 more a second: a flood to a guard that
            // counted them, unless the loop took over 100 s.
            for index in 0..<150 {
                let stream = try await client.serverStreaming(Echo.count, EchoRequest(text: "x", count: 1_000_000))
                var responses = stream.makeAsyncIterator()
                #expect(try await responses.next() != nil, "stream \(index) was answered")
                stream.cancel()
            }
            let reply = try await client.unary(Echo.get, EchoRequest(text: "still here"))
            #expect(reply.text == "still here", "the connection was kept")
            await connection.close()
        }
    }

    @Test("cancelling many calls whose handlers run is not a flood, however small the reset budget")
    func cancelsOfRunningCalls() async throws {
        try await withTestServer(configure: { configuration in
            configuration.abuseLimits.resets = RateLimit(burst: 10, perSecond: 1)
        }) { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let calls = (0..<200).map { index in
                Task { try await client.unary(Echo.hang, EchoRequest(text: "hang \(index)")) }
            }
            for _ in calls {
                let started = await server.probe.next { event in
                    if case .started(let text) = event { text.hasPrefix("hang") } else { false }
                }
                try #require(started != nil, "every hanging call's handler started")
            }
            for call in calls { call.cancel() }
            for call in calls { _ = try? await call.value }
            let reply = try await client.unary(Echo.get, EchoRequest(text: "still here"))
            #expect(reply.text == "still here", "200 cancels against a budget of 10 kept the connection")
            await connection.close()
        }
    }

    /// A well-behaved client whose concurrent calls time out together resets one stream per
    /// call: up to the concurrent-stream limit (1024) that must not look like a flood.
    @Test("many calls whose deadlines expire together do not cost their connection")
    func manyDeadlinesAtOnce() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let inFlight = Task { try await client.unary(Echo.get, EchoRequest(text: "in flight", sleepMs: 1500)) }
            _ = await server.probe.next { $0 == .started("in flight") }
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<1000 {
                    group.addTask {
                        _ = try? await client.unary(Echo.hang, EchoRequest(text: "timeout \(index)"),
                                                    options: CallOptions(timeout: .milliseconds(300)))
                    }
                }
            }
            #expect(try await inFlight.value.text == "in flight")
            #expect(try await client.unary(Echo.get, EchoRequest(text: "after")).text == "after")
            #expect(try await server.servesAnotherConnection())
            await connection.close()
        }
    }

    @Test("a PING flood gets GOAWAY ENHANCE_YOUR_CALM")
    func pingFlood() async throws {
        let (flood, _) = try await calmedFlood(
            configure: { $0.abuseLimits.pings = RateLimit(burst: 50, perSecond: 1) }, count: 1000
        ) { index in
            Frame(type: .ping, payload: (0..<8).map { UInt8(truncatingIfNeeded: index >> (56 - 8 * $0)) }).encoded
        }
        // Burst 50, refilled at 1/s while the flood lasts. ACKs still queued when the
        // connection is terminated are dropped by nghttp2: when the whole flood arrives
        // in one read, none goes out.
        let acks = flood.frames.filter { $0.type == .ping && $0.isAck }.count
        #expect(acks <= 60, "\(acks) PING ACKs")
    }

    @Test("a few PINGs and SETTINGS at once are all answered and the connection stays")
    func controlFramesWithinTheLimits() async throws {
        try await withTestServer { server in
            let port = server.port
            let frames = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                try raw.sendPreface()
                let burst = (0..<20).flatMap { index in
                    Frame(type: .ping, payload: [0, 0, 0, 0, 0, 0, 0, UInt8(index)]).encoded + Frame(type: .settings).encoded
                }
                try raw.sendRaw(burst)
                // Then a call, answered on the same connection.
                try raw.sendHeaders(streamID: 1, headers: RawHTTP2Connection.grpcRequestHeaders(path: "/echo.v1.Echo/Get"),
                                    endStream: false)
                try raw.sendData(streamID: 1, grpcMessage(#"{"text":"calm"}"#), endStream: true)
                let end = try raw.readUntil { $0.isEndStream || $0.type == .goAway }
                try check(end?.type == .headers, "closed or not answered: \(raw.receivedFrames)")
                return raw.receivedFrames
            }
            #expect(frames.filter { $0.type == .ping && $0.isAck }.count == 20, "\(frames)")
            // The preface's SETTINGS and the 20 more.
            #expect(frames.filter { $0.type == .settings && $0.isAck }.count == 21, "\(frames)")
            #expect(!frames.contains { $0.type == .goAway }, "\(frames)")
        }
    }

    @Test("a SETTINGS flood gets GOAWAY ENHANCE_YOUR_CALM")
    func settingsFlood() async throws {
        let (flood, _) = try await calmedFlood(
            configure: { $0.abuseLimits.settings = RateLimit(burst: 50, perSecond: 1) }, count: 1000
        ) { _ in
            Frame(type: .settings).encoded
        }
        // The preface's SETTINGS counts too: burst 50, refilled at 1/s (queued ACKs
        // are dropped on termination, as for PING).
        let acks = flood.frames.filter { $0.type == .settings && $0.isAck }.count
        #expect(acks <= 60, "\(acks) SETTINGS ACKs")
    }

    @Test("endless CONTINUATION frames get GOAWAY ENHANCE_YOUR_CALM")
    func continuationFlood() async throws {
        // A valid header block with many headers, cut in 16-byte fragments: 1 HEADERS
        // without END_HEADERS, then CONTINUATION frames that never end it.
        let block = RawHTTP2Connection.hpackLiteral(
            RawHTTP2Connection.grpcRequestHeaders(path: "/echo.v1.Echo/Get") + (0..<500).map { ("x-pad-\($0)", "v") })
        let fragments = stride(from: 0, to: block.count, by: 16).map { Array(block[$0..<min($0 + 16, block.count)]) }
        let (_, goAway) = try await calmedFlood(count: min(1000, fragments.count)) { index in
            index == 0
                ? Frame(type: .headers, streamID: 1, payload: fragments[0]).encoded
                : Frame(type: .continuation, streamID: 1, payload: fragments[index]).encoded
        }
        // nghttp2 opens the stream at the HEADERS frame, so it counts stream 1 as
        // processed, but no call started: its header block never ended.
        #expect(goAway.goAwayLastStreamID == 1, "\(goAway)")
    }

    /// Frames that carry nothing, each a flood of its own (CVE-2019-9513 and -9518).
    enum EmptyFrame: String, CaseIterable, CustomTestStringConvertible {
        case emptyData = "empty DATA frames on an open stream"
        case paddedData = "DATA frames of padding only"
        case dataOnAClosedStream = "empty DATA frames on a stream the client reset (nghttp2 skips them unseen)"
        case priority = "PRIORITY frames"
        case unknownType = "frames of an unknown type"

        var testDescription: String { rawValue }

        func frame(_ index: Int) -> [UInt8] {
            let requestBlock = RawHTTP2Connection.hpackLiteral(RawHTTP2Connection.grpcRequestHeaders(path: "/echo.v1.Echo/Get"))
            switch (self, index) {
            case (.dataOnAClosedStream, 0):  // a call, reset: nghttp2 forgets the stream
                return Frame(type: .headers, flags: 0x4, streamID: 1, payload: requestBlock).encoded
                    + Frame(type: .rstStream, streamID: 1, payload: [0, 0, 0, 8]).encoded
            case (.emptyData, 0), (.paddedData, 0):  // a call waiting for its request
                return Frame(type: .headers, flags: 0x4, streamID: 1, payload: requestBlock).encoded
            case (.emptyData, _), (.dataOnAClosedStream, _):
                return Frame(type: .data, streamID: 1).encoded
            case (.paddedData, _):
                return Frame(type: .data, flags: 0x8, streamID: 1, payload: [UInt8(3), 0, 0, 0]).encoded
            case (.priority, _):
                return Frame(type: .priority, streamID: UInt32(2 * index + 1), payload: [0, 0, 0, 0, 15]).encoded
            case (.unknownType, _):
                return Frame(type: FrameType(rawValue: 0xFA), payload: [1, 2, 3]).encoded
            }
        }
    }

    @Test("a flood of frames that carry nothing gets GOAWAY ENHANCE_YOUR_CALM", arguments: EmptyFrame.allCases)
    func emptyFrameFlood(_ kind: EmptyFrame) async throws {
        _ = try await calmedFlood(configure: { $0.abuseLimits.emptyFrames = RateLimit(burst: 100, perSecond: 1) }, count: 5000, kind.frame)
    }

    @Test("WINDOW_UPDATE frames far beyond what the server's DATA called for get GOAWAY ENHANCE_YOUR_CALM")
    func windowUpdateFlood() async throws {
        let (_, goAway) = try await calmedFlood(count: 5000) { _ in
            Frame(type: .windowUpdate, payload: [0, 0, 0, 1]).encoded
        }
        #expect(goAway.goAwayLastStreamID == 0, "\(goAway)")
    }

    @Test("a request split into HEADERS and 4 CONTINUATION frames, twice, is served")
    func continuationsWithinTheLimit() async throws {
        try await withTestServer { server in
            let port = server.port
            let frames = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                try raw.sendPreface()
                for stream: UInt32 in [1, 3] {
                    let block = RawHTTP2Connection.hpackLiteral(RawHTTP2Connection.grpcRequestHeaders(path: "/echo.v1.Echo/Get"))
                    let size = (block.count + 4) / 5
                    let fragments = stride(from: 0, to: block.count, by: size).map { Array(block[$0..<min($0 + size, block.count)]) }
                    try check(fragments.count == 5, "\(fragments.count) fragments")
                    try raw.sendHeaders(streamID: stream, headerBlockFragment: fragments[0], endStream: false, endHeaders: false)
                    for index in 1..<5 {
                        try raw.sendContinuation(streamID: stream, headerBlockFragment: fragments[index], endHeaders: index == 4)
                    }
                    try raw.sendData(streamID: stream, grpcMessage(#"{"text":"split"}"#), endStream: true)
                }
                var ended: Set<UInt32> = []
                while ended.count < 2 {
                    let frame = try raw.readUntil { $0.isEndStream || $0.type == .rstStream || $0.type == .goAway }
                    try check(frame?.type == .headers, "closed or not answered: \(raw.receivedFrames)")
                    ended.insert(frame!.streamID)
                }
                return raw.receivedFrames
            }
            // Each stream: response HEADERS, one DATA with the message, trailers with END_STREAM.
            for stream: UInt32 in [1, 3] {
                let onStream = frames.filter { $0.streamID == stream }.map(\.type)
                #expect(onStream == [.headers, .data, .headers], "stream \(stream): \(onStream)")
            }
            #expect(!frames.contains { $0.type == .goAway })
        }
    }

    @Test("a header list over the limit is RESOURCE_EXHAUSTED for that call only")
    func headerListOverLimit() async throws {
        try await withTestServer { server in
            // Our client, to read the status: 20 KiB of metadata against the 16 KiB limit.
            let connection = try await server.connect()
            var options = CallOptions()
            options.metadata.add("x-big", String(repeating: "b", count: 20 * 1024))
            let error = try await #require(throws: RPCError.self) {
                try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "x"), options: options)
            }
            #expect(error.code == .resourceExhausted)
            #expect(error.message.contains("header list"), "\(error)")
            let reply = try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "after"))
            #expect(reply.text == "after")
            #expect(try await server.servesAnotherConnection())
            await connection.close()
        }
    }

    /// nghttp2 does not enforce the SETTINGS_MAX_HEADER_LIST_SIZE it advertises, and its own
    /// HPACK limit is a 64 KiB string: a 64 KiB value decodes, and it is our header list that
    /// drops the fields and answers RESOURCE_EXHAUSTED. That answer is one HEADERS frame with
    /// END_STREAM (trailers-only), no RST_STREAM, no GOAWAY, and the next stream is served.
    @Test("an oversized header block gets a trailers-only answer and the connection goes on",
          arguments: [20 * 1024, 64 * 1024])
    func oversizedHeaderBlock(valueSize: Int) async throws {
        try await withTestServer { server in
            try await withBystander(on: server) {
                let port = server.port
                let frames = try await runBlocking {
                    let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                    defer { raw.close() }
                    try raw.sendPreface()
                    let headers = RawHTTP2Connection.grpcRequestHeaders(path: "/echo.v1.Echo/Get")
                        + [("x-big", String(repeating: "b", count: valueSize))]
                    try sendHeaderBlock(RawHTTP2Connection.hpackLiteral(headers), on: 1, over: raw)
                    try raw.sendData(streamID: 1, grpcMessage(#"{"text":"big"}"#), endStream: true)
                    try raw.sendHeaders(streamID: 3, headers: RawHTTP2Connection.grpcRequestHeaders(path: "/echo.v1.Echo/Get"),
                                        endStream: false)
                    try raw.sendData(streamID: 3, grpcMessage(#"{"text":"next"}"#), endStream: true)
                    var ended: Set<UInt32> = []
                    while ended.count < 2 {
                        let frame = try raw.readUntil { $0.isEndStream || $0.type == .rstStream || $0.type == .goAway }
                        try check(frame?.type == .headers, "closed or not answered: \(raw.receivedFrames)")
                        ended.insert(frame!.streamID)
                    }
                    return raw.receivedFrames
                }
                #expect(frames.filter { $0.streamID == 1 }.map(\.type) == [.headers], "\(frames)")
                #expect(frames.filter { $0.streamID == 3 }.map(\.type) == [.headers, .data, .headers], "\(frames)")
                #expect(!frames.contains { $0.type == .goAway || $0.type == .rstStream }, "\(frames)")
            }
        }
    }

    @Test("oversized header lists over and over get GOAWAY ENHANCE_YOUR_CALM after the first few answers")
    func oversizedHeaderListFlood() async throws {
        let block = RawHTTP2Connection.hpackLiteral(
            RawHTTP2Connection.grpcRequestHeaders(path: "/echo.v1.Echo/Get") + [("x-big", String(repeating: "b", count: 20 * 1024))])
        let (flood, _) = try await calmedFlood(
            configure: { $0.abuseLimits.oversizedHeaderLists = RateLimit(burst: 3, perSecond: 1) }, count: 100
        ) { index in
            let stream = UInt32(2 * index + 1)
            return headerBlockFrames(block, on: stream)
                + Frame(type: .data, flags: FrameFlags.endStream, streamID: stream, payload: grpcMessage("{}")).encoded
        }
        // Burst 3, refilled at 1/s: a few calls answered RESOURCE_EXHAUSTED, not 100.
        let answered = flood.frames.filter { $0.type == .headers && $0.isEndStream }.count
        #expect(answered >= 1 && answered <= 10, "\(answered) answered: \(flood.frames)")
    }

    /// 128 KiB of headers need 9 frames of 16 KiB. nghttp2 decodes HPACK as frames arrive and
    /// refuses a string longer than 64 KiB: a connection error, COMPRESSION_ERROR, that comes
    /// before the 5th CONTINUATION frame which would have tripped the guard. Either way the
    /// offender is closed and nobody else notices.
    @Test("a 128 KiB header value is a connection error: GOAWAY COMPRESSION_ERROR")
    func hugeHeaderBlock() async throws {
        try await withTestServer { server in
            try await withBystander(on: server) {
                let port = server.port
                let frames = try await runBlocking {
                    let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                    defer { raw.close() }
                    try raw.sendPreface()
                    let headers = RawHTTP2Connection.grpcRequestHeaders(path: "/echo.v1.Echo/Get")
                        + [("x-huge", String(repeating: "h", count: 128 * 1024))]
                    do {
                        try sendHeaderBlock(RawHTTP2Connection.hpackLiteral(headers), on: 1, over: raw)
                        try raw.sendData(streamID: 1, grpcMessage(#"{"text":"huge"}"#), endStream: true)
                    } catch RawHTTP2Error.peerClosed {
                        // Closed while the block was still being sent.
                    }
                    return try raw.readUntilClosed()
                }
                let goAway = try #require(frames.first { $0.type == .goAway }, "\(frames)")
                #expect(goAway.goAwayErrorCode == HTTP2ErrorCode.compressionError, "\(goAway)")
            }
        }
    }

    @Test("an idle connection gets GOAWAY NO_ERROR and is closed once it answers the PING")
    func idleTimeout() async throws {
        // Timers long enough that a fresh connection's first call beats them on a loaded machine
        // (1 s was not, once).
        try await withTestServer(configure: { $0.idleTimeout = .seconds(3) }) { server in
            let port = server.port
            let (elapsed, frames) = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
                defer { raw.close() }
                let start = ContinuousClock.now
                try raw.sendPreface()
                // Graceful close in two steps, as grpc-go does: GOAWAY with the largest stream
                // id, then a PING; the final GOAWAY comes once the PING is answered.
                let ping = try raw.readUntil { $0.type == .ping && !$0.isAck }
                try check(ping != nil, "no PING: \(raw.receivedFrames)")
                try raw.sendPing(ping?.pingPayload ?? 0, ack: true)
                _ = try raw.readUntilClosed()
                return (ContinuousClock.now - start, raw.receivedFrames)
            }
            let goAways = frames.filter { $0.type == .goAway }
            #expect(goAways.map(\.goAwayErrorCode) == [HTTP2ErrorCode.noError, HTTP2ErrorCode.noError], "\(frames)")
            #expect(goAways.map(\.goAwayLastStreamID) == [0x7FFF_FFFF, 0], "\(frames)")
            #expect(elapsed >= .milliseconds(2950) && elapsed < .seconds(15), "\(elapsed)")
            #expect(try await server.servesAnotherConnection())
        }
    }

    /// The idle timer counts from the end of the last call: a call running when it would
    /// fire keeps the connection, and one that ended since moves the close to a full timeout
    /// after its end.
    @Test("the idle timeout counts from the end of the last call", arguments: [1_000, 3_000])
    func idleTimeoutAfterCalls(callMilliseconds: Int) async throws {
        try await withTestServer(configure: { $0.idleTimeout = .seconds(2) }) { server in
            let port = server.port
            let (idleFor, frames) = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(15))
                defer { raw.close() }
                try raw.sendPreface()
                try raw.sendHeaders(streamID: 1, headers: RawHTTP2Connection.grpcRequestHeaders(path: "/echo.v1.Echo/Get"),
                                    endStream: false)
                try raw.sendData(streamID: 1, grpcMessage(#"{"text":"slow","sleepMs":\#(callMilliseconds)}"#), endStream: true)
                let end = try raw.readUntil { ($0.streamID == 1 && $0.isEndStream) || $0.type == .goAway }
                try check(end?.type == .headers, "the call did not end first: \(raw.receivedFrames)")
                let callEnded = ContinuousClock.now
                let ping = try raw.readUntil { $0.type == .ping && !$0.isAck }
                try check(ping != nil, "no PING: \(raw.receivedFrames)")
                try raw.sendPing(ping?.pingPayload ?? 0, ack: true)
                _ = try raw.readUntilClosed()
                return (ContinuousClock.now - callEnded, raw.receivedFrames)
            }
            #expect(frames.filter { $0.type == .goAway }.map(\.goAwayErrorCode) == [HTTP2ErrorCode.noError, HTTP2ErrorCode.noError],
                    "\(frames)")
            #expect(idleFor >= .milliseconds(1950) && idleFor < .seconds(15), "closed \(idleFor) after the call ended")
        }
    }

    @Test("an idle connection that ignores the PING is closed when the grace period ends")
    func idleTimeoutSilentPeer() async throws {
        try await withTestServer(configure: {
            $0.idleTimeout = .seconds(3)
            $0.shutdownGracePeriod = .milliseconds(500)
        }) { server in
            let port = server.port
            let (elapsed, frames) = try await runBlocking {
                let start = ContinuousClock.now
                let frames = try framesUntilClosed(silentConnectionTo: port)
                return (ContinuousClock.now - start, frames)
            }
            let goAways = frames.filter { $0.type == .goAway }
            #expect(!goAways.isEmpty, "\(frames)")
            #expect(goAways.allSatisfy { $0.goAwayErrorCode == HTTP2ErrorCode.noError }, "\(frames)")
            #expect(elapsed >= .milliseconds(3450) && elapsed < .seconds(15), "\(elapsed)")
            #expect(try await server.servesAnotherConnection())
        }
    }

    @Test("a connection that never answers keepalive PINGs gets GOAWAY and is closed")
    func keepaliveTimeout() async throws {
        try await withTestServer(configure: {
            $0.keepaliveInterval = .milliseconds(200)
            // Long enough that the fresh connection below answers its PINGs in time on a loaded machine.
            $0.keepaliveTimeout = .seconds(3)
            $0.idleTimeout = nil
        }) { server in
            let port = server.port
            let frames = try await runBlocking { try framesUntilClosed(silentConnectionTo: port) }
            let ping = try #require(frames.firstIndex { $0.type == .ping && !$0.isAck }, "\(frames)")
            let goAway = try #require(frames.firstIndex { $0.type == .goAway }, "\(frames)")
            #expect(ping < goAway)
            #expect(frames[goAway].goAwayErrorCode == HTTP2ErrorCode.noError, "\(frames[goAway])")
            // A fresh connection, not a long-lived bystander: a bystander is subject to the same
            // 200 ms keepalive and, on a loaded machine, may itself answer a PING too late.
            #expect(try await server.servesAnotherConnection())
        }
    }

    // MARK: Helpers

    /// Runs a server (`configure`d) and floods it on a raw connection with `frame(i)` for i in
    /// 0..<count while a bystander is served (see `withBystander`); checks that the flood
    /// ended with GOAWAY ENHANCE_YOUR_CALM, and returns what the flooder read and that GOAWAY.
    private func calmedFlood(
        configure: (inout HTTP2ServerConfiguration) -> Void = { _ in },
        count: Int,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ frame: @escaping @Sendable (Int) -> [UInt8]
    ) async throws -> (flood: FloodResult, goAway: Frame) {
        try await withTestServer(configure: configure) { server in
            var result: (flood: FloodResult, goAway: Frame)?
            try await withBystander(on: server, sourceLocation: sourceLocation) {
                let port = server.port
                let flood = try await runBlocking { try flooding(port: port, count: count, frame) }
                let goAway = try #require(flood.goAway, "frames: \(flood.frames)", sourceLocation: sourceLocation)
                #expect(goAway.goAwayErrorCode == HTTP2ErrorCode.enhanceYourCalm, "\(goAway)", sourceLocation: sourceLocation)
                result = (flood, goAway)
            }
            return try #require(result, sourceLocation: sourceLocation)
        }
    }

    /// Opens a well-behaved connection, runs `body`, then checks that this connection and a
    /// new one are both still served.
    private func withBystander(
        on server: TestServer,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async throws {
        let bystander = try await server.connect()
        let client = RPCClient(transport: bystander)
        #expect(try await client.unary(Echo.get, EchoRequest(text: "before")).text == "before", sourceLocation: sourceLocation)
        try await body()
        #expect(try await client.unary(Echo.get, EchoRequest(text: "after")).text == "after", sourceLocation: sourceLocation)
        #expect(try await server.servesAnotherConnection(), sourceLocation: sourceLocation)
        await bystander.close()
    }
}

/// What a flood got back: every frame until the server closed, and its GOAWAY.
struct FloodResult: Sendable {
    var sent: Int
    var frames: [Frame]
    var goAway: Frame? { frames.first { $0.type == .goAway } }
}

/// Sends the preface, then `frame(i)` for i in 0..<count in batches, without reading, until
/// done or the server closed; then reads until the server closes.
private func flooding(port: Int, count: Int, _ frame: (Int) -> [UInt8]) throws -> FloodResult {
    let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
    defer { raw.close() }
    try raw.sendPreface()
    var sent = 0
    do {
        while sent < count {
            let batch = sent..<min(sent + 50, count)
            try raw.sendRaw(batch.flatMap(frame))
            sent = batch.upperBound
        }
    } catch RawHTTP2Error.peerClosed {
        // The server closed the connection mid-flood: what it sent before is still readable.
    }
    return FloodResult(sent: sent, frames: try raw.readUntilClosed())
}

/// Sends a header block as HEADERS plus as many CONTINUATION frames as the default 16 KiB
/// frame size needs.
private func sendHeaderBlock(_ block: [UInt8], on stream: UInt32, over raw: RawHTTP2Connection) throws {
    try raw.sendRaw(headerBlockFrames(block, on: stream))
}

/// A header block as HEADERS plus as many CONTINUATION frames as the default 16 KiB frame size
/// needs, END_HEADERS on the last, encoded.
private func headerBlockFrames(_ block: [UInt8], on stream: UInt32) -> [UInt8] {
    let fragments = stride(from: 0, to: block.count, by: 16_384).map { Array(block[$0..<min($0 + 16_384, block.count)]) }
    return fragments.enumerated().flatMap { index, fragment in
        let flags = index == fragments.count - 1 ? FrameFlags.endHeaders : 0
        return Frame(type: index == 0 ? .headers : .continuation, flags: flags, streamID: stream, payload: fragment).encoded
    }
}
