import Logging
import NIOCore
import NIOEmbedded
import RPCCore
import Testing

@testable import RPCHTTP2

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
            #expect(released == nil)
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
}
