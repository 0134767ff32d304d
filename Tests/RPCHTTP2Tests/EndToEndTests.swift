import Foundation
import RPCCore
import RPCHTTP2
import Testing
@testable import RPCFraming
@testable import RPCHTTP2Core

@Suite("End to end over loopback with our client")
struct EndToEndTests {
    @Test("a unary call returns the response with initial and trailing metadata")
    func unary() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            var options = CallOptions()
            options.metadata.add("x-echo", "abc")
            let response = try await client.unaryResponse(
                Echo.get, EchoRequest(text: "héllo ✓", trailers: ["x-trace": "t1", "x-blob-bin": "raw"]), options: options)
            #expect(response.message == EchoResponse(text: "héllo ✓"))
            #expect(response.initialMetadata.first("x-echo") == "abc")
            #expect(response.trailingMetadata.first("x-trace") == "t1")
            #expect(response.trailingMetadata.firstBinary("x-blob-bin") == Array("raw".utf8))
            await connection.close()
        }
    }

    @Test("a handler error reaches the client with status, message, detail and trailers")
    func errorStatus() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let request = EchoRequest(text: "x", status: 5, message: "no item 42 ✓", reason: "notFound", trailers: ["x-trace": "t1"])
            let error = try await #require(throws: RPCError.self) { try await client.unary(Echo.get, request) }
            #expect(error.code == .notFound)
            #expect(error.message == "no item 42 ✓")
            #expect(error.detail?.reason == "notFound")
            #expect(error.metadata.first("x-trace") == "t1")
            await connection.close()
        }
    }

    @Test("an unknown method is UNIMPLEMENTED")
    func unknownMethod() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let missing = UnaryMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Nope")
            let error = try await #require(throws: RPCError.self) {
                try await RPCClient(transport: connection).unary(missing, EchoRequest(text: "x"))
            }
            #expect(error.code == .unimplemented)
            await connection.close()
        }
    }

    /// Server streams written by a handler task (`Expand`) and pulled from a `ResponseSource`
    /// made in a task (`Count`) or inline (`CountInline`).
    static let streamingMethods = [Echo.expand, Echo.count, Echo.countInline]

    @Test("a server stream delivers 100 000 messages in order", arguments: streamingMethods)
    func largeServerStream(method: ServerStreamingMethod<EchoRequest, EchoResponse>) async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let stream = try await RPCClient(transport: connection).serverStreaming(
                method, EchoRequest(text: "w", count: 100_000))
            var expected = 0
            for try await message in stream {
                guard message.index == expected else { break }
                expected += 1
            }
            #expect(expected == 100_000)
            await connection.close()
        }
    }

    @Test("a server stream that fails after three messages yields them, then the error")
    func streamThenError() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let stream = try await RPCClient(transport: connection).serverStreaming(
                Echo.expand, EchoRequest(text: "w", count: 3, status: 9, message: "stop", reason: "tooFar"))
            var received = 0
            let error = try await #require(throws: RPCError.self) {
                for try await _ in stream { received += 1 }
            }
            #expect(received == 3)
            #expect(error.code == .failedPrecondition)
            #expect(error.detail?.reason == "tooFar")
            await connection.close()
        }
    }

    @Test("1000 concurrent calls share one connection")
    func concurrentCalls() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<1000 {
                    group.addTask { try await client.unary(Echo.get, EchoRequest(text: "call \(index)")).text == "call \(index)" }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(answered == 1000)
            await connection.close()
        }
    }

    @Test("a deadline ends the call with DEADLINE_EXCEEDED and cancels the handler")
    func deadline() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let error = try await #require(throws: RPCError.self) {
                // Long enough for the handler to start on a loaded machine, so there is one to cancel.
                try await client.unary(Echo.get, EchoRequest(text: "slow", sleepMs: 60_000), options: CallOptions(timeout: .seconds(20)))
            }
            #expect(error.code == .deadlineExceeded)
            let cancelled = await server.probe.next { $0 == .cancelled("slow") }
            #expect(cancelled == .cancelled("slow"))
            await connection.close()
        }
    }

    @Test("the server enforces grpc-timeout on its own: trailers end the stream and the handler is cancelled")
    func serverSideDeadline() async throws {
        try await withTestServer { server in
            let port = server.port
            // A raw client: it sends grpc-timeout but, unlike ours, never resets the stream itself.
            let body = FramedMessage(try JSONCodec.shared.encode(EchoRequest(text: "slow2", sleepMs: 60_000)), compression: .identity).bytes
            let endOfCall = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(30))
                defer { raw.close() }
                try raw.sendPreface()
                // Long enough for the handler to start on a loaded machine, so there is one to cancel
                // (a call whose deadline passes before its turn never starts a handler).
                let headers = RawHTTP2Connection.grpcRequestHeaders(path: Echo.get.descriptor.path) + [("grpc-timeout", "5S")]
                try raw.sendHeaders(streamID: 1, headers: headers, endStream: false)
                try raw.sendData(streamID: 1, body, endStream: true)
                return try raw.readUntil { $0.streamID == 1 && ($0.type == .rstStream || ($0.type == .headers && $0.isEndStream)) }
            }
            #expect(endOfCall?.type == .headers, "the call ends with trailers, not a reset: \(String(describing: endOfCall))")
            let cancelled = await server.probe.next { $0 == .cancelled("slow2") }
            #expect(cancelled == .cancelled("slow2"))
        }
    }

    @Test("cancelling the calling task resets the stream and cancels the handler")
    func cancellation() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let task = Task { try await client.unary(Echo.hang, EchoRequest(text: "hang")) }
            let started = await server.probe.next { $0 == .started("hang") }
            #expect(started == .started("hang"))
            task.cancel()
            let result = await task.result
            #expect(throws: RPCError.self) { try result.get() }
            #expect((try? result.get()) == nil)
            if case .failure(let error as RPCError) = result { #expect(error.code == .cancelled) }
            let cancelled = await server.probe.next { $0 == .cancelled("hang") }
            #expect(cancelled == .cancelled("hang"))
            await connection.close()
        }
    }

    @Test("a message at the size limit passes and one byte more is RESOURCE_EXHAUSTED", arguments: [false, true])
    func messageSizeLimit(compressed: Bool) async throws {
        let limit = 256 * 1024
        try await withTestServer(configure: { $0.maxReceiveMessageSize = limit }) { server in
            let connection = try await server.connect()
            let options = CallOptions(compression: compressed ? .gzip : .identity)
            let overhead = try JSONCodec.shared.encode(EchoRequest(text: "")).count
            let fits = EchoRequest(text: String(repeating: "a", count: limit - overhead))
            #expect(try JSONCodec.shared.encode(fits).count == limit)
            let reply = try await RPCClient(transport: connection).unary(Echo.get, fits, options: options)
            #expect(reply.text.count == limit - overhead)
            let tooLarge = EchoRequest(text: String(repeating: "a", count: limit - overhead + 1))
            let error = try await #require(throws: RPCError.self) {
                try await RPCClient(transport: connection).unary(Echo.get, tooLarge, options: options)
            }
            #expect(error.code == .resourceExhausted)
            #expect(try await server.servesAnotherConnection())
            await connection.close()
        }
    }

    @Test("a client that stops reading a stream holds the handler (or the pulls) back, and others are served",
          arguments: streamingMethods)
    func slowReader(method: ServerStreamingMethod<EchoRequest, EchoResponse>) async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let payload = String(repeating: "p", count: 1000)
            let stream = try await RPCClient(transport: connection).serverStreaming(
                method, EchoRequest(text: payload, count: 1_000_000))
            var iterator = stream.makeAsyncIterator()
            #expect(try await iterator.next()?.index == 0)
            let stalledAt = try await server.probe.writtenCountOnceStalled()
            // About 1 KB per message: windows and buffers hold a few MB, not the 1 GB asked for.
            #expect(stalledAt < 40_000)
            #expect(try await server.servesAnotherConnection())
            for _ in 0..<(stalledAt + 1000) { _ = try await iterator.next() }
            #expect(server.probe.writtenCount > stalledAt)
            stream.cancel()
            if method.descriptor != Echo.expand.descriptor {
                let closed = await server.probe.next { $0 == .cancelled(payload) }
                #expect(closed == .cancelled(payload), "the source learns that the client went away")
            }
            await connection.close()
        }
    }

    @Test("graceful shutdown lets an in-flight call finish")
    func gracefulShutdown() async throws {
        let connectionBox = try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let inFlight = Task { try await client.unary(Echo.get, EchoRequest(text: "drain", sleepMs: 300)) }
            _ = await server.probe.next { $0 == .started("drain") }
            server.server.beginGracefulShutdown()
            let reply = try await inFlight.value
            #expect(reply.text == "drain")
            return connection
        }
        let error = try await #require(throws: RPCError.self) {
            try await RPCClient(transport: connectionBox).unary(Echo.get, EchoRequest(text: "late"))
        }
        #expect(error.code == .unavailable)
    }
}
