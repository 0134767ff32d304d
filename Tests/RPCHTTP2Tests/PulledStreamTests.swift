import Foundation
import RPCCore
import RPCHTTP2
import Synchronization
import Testing
@testable import RPCFraming
@testable import RPCHTTP2Core

/// Server streams served by a pulled `ResponseSource` (no task per stream). Volume and a
/// slow reader are covered with the task-written streams in `EndToEndTests`.
@Suite("Pulled server streams end to end")
struct PulledStreamTests {
    /// A source made in the call's task, and one made inline.
    static let pulledMethods = [Echo.count, Echo.countInline]

    @Test("a source's error end reaches the client after its messages, with detail and trailers", arguments: Self.pulledMethods)
    func errorEnd(method: ServerStreamingMethod<EchoRequest, EchoResponse>) async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let stream = try await RPCClient(transport: connection).serverStreaming(
                method, EchoRequest(text: "e", count: 3, status: 11, message: "past the end", reason: "futureRevision",
                                        trailers: ["x-trace": "t9"]))
            var received: [Int] = []
            let error = try await #require(throws: RPCError.self) {
                for try await message in stream { received.append(message.index ?? -1) }
            }
            #expect(received == [0, 1, 2])
            #expect(error.code == .outOfRange)
            #expect(error.detail?.reason == "futureRevision")
            #expect(error.metadata.first("x-trace") == "t9")
            await connection.close()
        }
    }

    @Test("a source that ends at once gives a trailers-only error response", arguments: Self.pulledMethods)
    func immediateEnd(method: ServerStreamingMethod<EchoRequest, EchoResponse>) async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let stream = try await RPCClient(transport: connection).serverStreaming(
                method, EchoRequest(text: "z", count: 0, status: 8, message: "full"))
            let error = try await #require(throws: RPCError.self) { for try await _ in stream {} }
            #expect(error.code == .resourceExhausted)
            #expect(error.message == "full")
            await connection.close()
        }
    }

    @Test("the server's deadline ends a pulled stream with DEADLINE_EXCEEDED and closes the source", arguments: Self.pulledMethods)
    func deadline(method: ServerStreamingMethod<EchoRequest, EchoResponse>) async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let payload = String(repeating: "d", count: 1000)
            let stream = try await RPCClient(transport: connection).serverStreaming(
                method, EchoRequest(text: payload, count: 10_000_000), options: CallOptions(timeout: .seconds(15)))
            var iterator = stream.makeAsyncIterator()
            #expect(try await iterator.next()?.index == 0)
            // Not reading: the deadline, not the end of the source, must stop the stream.
            let closed = await server.probe.next { $0 == .cancelled(payload) }
            #expect(closed == .cancelled(payload))
            let error = try await #require(throws: RPCError.self) { while try await iterator.next() != nil {} }
            #expect(error.code == .deadlineExceeded)
            await connection.close()
        }
    }

    @Test("a lost connection closes every source on it", arguments: Self.pulledMethods)
    func lostConnection(method: ServerStreamingMethod<EchoRequest, EchoResponse>) async throws {
        try await withTestServer { server in
            let port = server.port
            // A raw client that drops its socket while three endless streams are open.
            let framesBeforeClose = try await runBlocking {
                let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(30))
                defer { raw.close() }
                try raw.sendPreface()
                // Room on the connection for every stream's 64 KiB window: with the default
                // 64 KiB in all, the first streams could use it up before the last one starts.
                try raw.sendWindowUpdate(streamID: 0, increment: 1 << 20)
                for index in 0..<3 {
                    let body = FramedMessage(try JSONCodec.shared.encode(EchoRequest(text: "lost\(index)", count: 10_000_000)), compression: .identity).bytes
                    let streamID = UInt32(1 + 2 * index)
                    try raw.sendHeaders(streamID: streamID, headers: RawHTTP2Connection.grpcRequestHeaders(path: method.descriptor.path), endStream: false)
                    try raw.sendData(streamID: streamID, body, endStream: true)
                }
                var streamsWithData = Set<UInt32>()
                while streamsWithData.count < 3, let frame = try raw.readFrame() {
                    if frame.type == .data { streamsWithData.insert(frame.streamID) }
                }
                return streamsWithData.count
            }
            #expect(framesBeforeClose == 3)
            let closedSources = Mutex(Set<String>())
            let allClosed = await server.probe.next { event in
                guard case .cancelled(let text) = event else { return false }
                return closedSources.withLock { closed in
                    closed.insert(text)
                    return closed == ["lost0", "lost1", "lost2"]
                }
            }
            #expect(allClosed != nil, "closed: \(closedSources.withLock { $0 })")
            #expect(try await server.servesAnotherConnection())
        }
    }
}
