import Logging
import NIOCore
import NIOEmbedded
import RPCCore
import Testing

@testable import RPCCallLayer
@testable import RPCHTTP2

@Suite("Graceful shutdown of a connection accepted just before it began")
struct ShutdownBeforeActiveTests {
    @Test("a connection told to drain before it became active sends GOAWAY as soon as it is")
    func drainsOnceActive() throws {
        let handler = ServerConnectionHandler(
            configuration: .defaults, router: Router(), tasks: ConnectionTasks(), logger: Logger(label: "test.shutdown"),
            metrics: ServerMetrics(router: Router()))
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        try channel.pipeline.syncOperations.addHandler(handler)

        channel.pipeline.fireUserInboundEventTriggered(ServerConnectionHandler.GracefulShutdownEvent())
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 50051)).wait()
        channel.embeddedEventLoop.run()

        var sent = ByteBuffer()
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) { sent.writeBuffer(&buffer) }
        #expect(Self.frameTypes(in: sent).contains(Self.goAway), "the shutdown notice went out once the connection was active")
    }

    private static let goAway: UInt8 = 0x7

    /// The type of each HTTP/2 frame in `buffer`.
    private static func frameTypes(in buffer: ByteBuffer) -> [UInt8] {
        let bytes = Array(buffer.readableBytesView)
        var types: [UInt8] = []
        var offset = 0
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            types.append(bytes[offset + 3])
            offset += 9 + length
        }
        return types
    }
}
