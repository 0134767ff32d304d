import Logging
import NIOCore
import NIOEmbedded
import RPCCore
import TestSupport
import Testing

@testable import RPCCallLayer
@testable import RPCHTTP2
@testable import RPCHTTP2Client

@Suite("Finished calls and closed connections are freed")
struct LifetimeTests {
    @Test("a client call is freed once it finished: its stream state lets go of it")
    func finishedClientCallIsFreed() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            weak var released: ClientCall?
            do {
                let call = try #require(try await connection.openCall(Echo.get.descriptor, options: .defaults) as? ClientCall)
                released = call
                try await call.send(JSONCodec().encode(EchoRequest(text: "x")), endOfStream: true)
                #expect(try await call.receive() != nil)
                #expect(try await call.receive() == nil)
            }
            // The receiver may run before the event loop has closed the stream that delivered the end.
            try await eventually("the finished call is freed") { released == nil }
            await connection.close()
        }
    }

    @Test("a server connection's handler is freed once its channel closed")
    func closedServerConnectionIsFreed() throws {
        weak var released: ServerConnectionHandler?
        do {
            let handler = ServerConnectionHandler(
                configuration: .defaults, router: Router(), tasks: ConnectionTasks(), logger: Logger(label: "test.lifetime"),
                metrics: ServerMetrics(router: Router()))
            released = handler
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandler(handler)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 50051)).wait()
            _ = try channel.finish(acceptAlreadyClosed: true)
        }
        #expect(released == nil)
    }

    static func calls() -> ConnectionCalls {
        ConnectionCalls(
            configuration: HTTP2ServerConfiguration.defaults.callLayer, router: Router(), tasks: ConnectionTasks(), logger: Logger(label: "test.lifetime"),
            metrics: ServerMetrics(router: Router()), warnings: WarningThrottle(), bufferPool: nil)
    }

    @Test("an HTTP/1.1 connection's handler is freed once its channel closed, its idle and head timeouts armed")
    func closedHTTP1ConnectionIsFreed() throws {
        weak var released: HTTP1ConnectionHandler?
        do {
            #expect(HTTP2ServerConfiguration.defaults.idleTimeout != nil && HTTP2ServerConfiguration.defaults.requestBodyTimeout != nil)
            let handler = HTTP1ConnectionHandler(calls: Self.calls(), configuration: .defaults, refusal: nil)
            released = handler
            let channel = EmbeddedChannel()
            try channel.pipeline.syncOperations.addHandler(handler)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 50051)).wait()
            handler.bytesArrived()  // starts the head timeout
            _ = try channel.finish(acceptAlreadyClosed: true)
        }
        #expect(released == nil)
    }

    @Test("a stream whose call has a deadline is freed once it closed: its timer lets go of it")
    func closedStreamWithDeadlineIsFreed() {
        let loop = EmbeddedEventLoop()
        let calls = Self.calls()
        weak var released: CallStream?
        do {
            let stream = calls.openStream(id: 1, openedInRead: 0)
            released = stream
            stream.armDeadline(on: EventLoopCallLoop(loop), at: .now + .seconds(60), connection: calls)
            _ = calls.closeStream(1)
            stream.close()
        }
        #expect(released == nil)
    }
}
