import RPCCore
import RPCHTTP2
import RPCInProcess
import Synchronization
import TestSupport
import Testing

/// Where a test's calls go: our HTTP/2 client to a server over loopback, or the in-process
/// transport. The same behaviour is asked of both.
enum EchoFrontEnd: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case http2
    case inProcess

    var testDescription: String { rawValue }

    /// Runs `body` with a client whose calls the echo service answers, and its probe.
    func withClient(_ body: (RPCClient, EchoProbe) async throws -> Void) async throws {
        switch self {
        case .http2:
            try await withTestServer { server in
                let connection = try await server.connect()
                try await body(RPCClient(transport: connection), server.probe)
                await connection.close()
            }
        case .inProcess:
            let probe = EchoProbe()
            var router = Router()
            router.register(EchoService(probe: probe))
            try await body(RPCClient(transport: InProcessTransport(router: router)), probe)
        }
    }
}

/// Client streaming and bidirectional streaming through our client, on every front end.
@Suite("Client and bidirectional streaming")
struct RequestStreamingTests {
    @Test("a client stream of 2 000 messages is answered once, after the half-close", arguments: EchoFrontEnd.allCases)
    func clientStream(frontEnd: EchoFrontEnd) async throws {
        try await frontEnd.withClient { client, _ in
            let response = try await client.clientStreaming(Echo.collect) { writer in
                for index in 0..<2_000 { try await writer.write(EchoRequest(text: index % 200 == 0 ? "k" : "")) }
            }
            #expect(response == EchoResponse(text: "kkkkkkkkkk", index: 2_000))
        }
    }

    @Test("a gzip-compressed client stream is answered, and its writes are held back by their compressed size")
    func compressedClientStream() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            // 2 000 messages of 8 KiB that gzip shrinks to a few dozen bytes each: counted at
            // their plain size when written, at their compressed size once framed.
            let response = try await client.clientStreaming(Echo.collect, options: CallOptions(compression: .gzip)) { writer in
                for index in 0..<2_000 { try await writer.write(EchoRequest(text: (index % 500 == 0 ? "z" : "a") + String(repeating: "a", count: 8 * 1024))) }
            }
            #expect(response.index == 2_000)
            #expect(response.text.filter { $0 == "z" }.count == 4)
            await connection.close()
        }
    }

    @Test("a client stream of no message is answered", arguments: EchoFrontEnd.allCases)
    func emptyClientStream(frontEnd: EchoFrontEnd) async throws {
        try await frontEnd.withClient { client, _ in
            let response = try await client.clientStreaming(Echo.collect) { _ in }
            #expect(response == EchoResponse(text: "", index: 0))
            let fromSequence = try await client.clientStreaming(Echo.collect, [EchoRequest(text: "a"), EchoRequest(text: "b")].streamed)
            #expect(fromSequence == EchoResponse(text: "ab", index: 2))
        }
    }

    @Test("a handler that fails mid-stream ends the call with its status, and the client's writes stop", arguments: EchoFrontEnd.allCases)
    func clientStreamFailsEarly(frontEnd: EchoFrontEnd) async throws {
        try await frontEnd.withClient { client, _ in
            let writes = Mutex(0)
            let error = try await #require(throws: RPCError.self) {
                try await client.clientStreaming(Echo.collect) { writer in
                    try await writer.write(EchoRequest(text: "a"))
                    try await writer.write(EchoRequest(text: "b", status: 5, message: "no b", reason: "notFound"))
                    // Endless, unless a write throws once the server answered.
                    while true {
                        try await writer.write(EchoRequest(text: String(repeating: "x", count: 1000)))
                        writes.withLock { $0 += 1 }
                    }
                }
            }
            #expect(error.code == .notFound)
            #expect(error.message == "no b")
            #expect(error.detail?.reason == "notFound")
        }
    }

    @Test("an error of the request producer's own is rethrown as it is and cancels the handler", arguments: EchoFrontEnd.allCases)
    func producerError(frontEnd: EchoFrontEnd) async throws {
        struct Unreadable: Error, Equatable {}
        try await frontEnd.withClient { client, probe in
            await #expect(throws: Unreadable.self) {
                try await client.clientStreaming(Echo.collect) { writer in
                    try await writer.write(EchoRequest(text: "first"))
                    _ = await probe.next { $0 == .started("first") }
                    throw Unreadable()
                }
            }
            #expect(await probe.next { $0 == .cancelled("first") } != nil, "the handler saw the call cancelled")
        }
    }

    @Test("a slow reader holds the client's writes back", arguments: EchoFrontEnd.allCases)
    func clientStreamBackPressure(frontEnd: EchoFrontEnd) async throws {
        try await frontEnd.withClient { client, probe in
            let written = Mutex(0)
            let total = 1_000
            let call = Task {
                try await client.clientStreaming(Echo.collect) { writer in
                    // The first message holds the handler before it reads on; 1 000 of
                    // 16 KiB (16 MiB) would be in flight without flow control.
                    try await writer.write(EchoRequest(text: "", holdUntilReleased: true))
                    for _ in 1..<total {
                        try await writer.write(EchoRequest(text: String(repeating: "s", count: 16 * 1024)))
                        written.withLock { $0 += 1 }
                    }
                }
            }
            _ = await probe.next { $0 == .started("") }
            // Observing that writes stall can only be done over time: wait until they stop moving.
            var last = -1
            while written.withLock({ $0 }) != last {
                last = written.withLock { $0 }
                try await Task.sleep(for: .milliseconds(300))
            }
            let stalledAt = written.withLock { $0 }
            #expect(stalledAt < total / 4, "the client stopped writing while the handler was held (\(stalledAt) written)")
            probe.releaseStuckHandlers()
            let response = try await call.value
            #expect(response.index == total, "every message arrived once the handler read on")
        }
    }

    @Test("a bidirectional call answers each request before the next is sent", arguments: EchoFrontEnd.allCases)
    func pingPong(frontEnd: EchoFrontEnd) async throws {
        try await frontEnd.withClient { client, _ in
            let answers = try await chatInLockstep(client, count: 100)
            #expect(answers == (0..<100).map { (index: Int) in EchoResponse(text: "ping \(index)", index: index) })
        }
    }

    @Test("a bidirectional handler's error reaches the reader after the answers before it", arguments: EchoFrontEnd.allCases)
    func bidirectionalError(frontEnd: EchoFrontEnd) async throws {
        try await frontEnd.withClient { client, _ in
            let received = Mutex(0)
            let error = try await #require(throws: RPCError.self) {
                try await client.bidirectionalStreaming(Echo.chat, requests: { writer in
                    try await writer.write(EchoRequest(text: "a"))
                    try await writer.write(EchoRequest(text: "b"))
                    try await writer.write(EchoRequest(text: "c", status: 9, message: "stop"))
                }) { responses in
                    for try await _ in responses { received.withLock { $0 += 1 } }
                }
            }
            #expect(error.code == .failedPrecondition)
            #expect(error.message == "stop")
            #expect(received.withLock { $0 } == 2)
        }
    }

    @Test("leaving a bidirectional call early cancels its handler", arguments: EchoFrontEnd.allCases)
    func bidirectionalLeftEarly(frontEnd: EchoFrontEnd) async throws {
        try await frontEnd.withClient { client, _ in
            let first = try await client.bidirectionalStreaming(Echo.chat, requests: { writer in
                while true { try await writer.write(EchoRequest(text: "again")) }
            }) { responses -> EchoResponse? in
                for try await response in responses { return response }
                return nil
            }
            #expect(first == EchoResponse(text: "again", index: 0))
            // The connection still serves (the call's stream was reset, not left open).
            #expect(try await client.unary(Echo.get, EchoRequest(text: "after")) == EchoResponse(text: "after"))
        }
    }

    @Test("a bidirectional call stays open past the request body timeout while its client is quiet")
    func quietRequestStreamOutlivesTheBodyTimeout() async throws {
        try await withTestServer(configure: { $0.requestBodyTimeout = .milliseconds(200) }) { server in
            let connection = try await server.connect()
            let (requests, feed) = AsyncStream.makeStream(of: EchoRequest.self)
            let answers = try await RPCClient(transport: connection).bidirectionalStreaming(Echo.chat, requests: { writer in
                for await request in requests { try await writer.write(request) }
            }) { responses in
                var answers: [EchoResponse] = []
                feed.yield(EchoRequest(text: "before"))
                for try await response in responses {
                    answers.append(response)
                    guard answers.count == 1 else { break }
                    // Quiet for five times the timeout, which would end a unary request still arriving.
                    try await Task.sleep(for: .seconds(1))
                    feed.yield(EchoRequest(text: "after"))
                }
                feed.finish()
                return answers.map(\.text)
            }
            #expect(answers == ["before", "after"])
            await connection.close()
        }
    }
}
