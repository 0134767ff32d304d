import NIOCore
import NIOEmbedded

/// One connection of a fuzz target, in memory: `handler` on an `EmbeddedChannel` takes a client's
/// bytes cut into reads as `first` (the input's first byte) chooses; after the reads, the clock
/// moves past every timeout, then the client leaves.
enum EmbeddedConnection {
    /// Everything the server sent.
    static func serve(_ bytes: [UInt8], to handler: any ChannelHandler, first: UInt8) throws(FuzzFailure) -> [UInt8] {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(handler: handler, loop: loop)
        var output: [UInt8] = []
        do {
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 50051)).wait()
            var offset = 0
            var chunk = Int(first >> 1) * 97 % 4096 + 1
            while offset < bytes.count, channel.isActive {
                let end = min(offset + chunk, bytes.count)
                try channel.writeInbound(channel.allocator.buffer(bytes: bytes[offset..<end]))
                loop.run()
                try collect(from: channel, into: &output)
                offset = end
                chunk = chunk * 7 % 8191 + 1
            }
            for _ in 0..<4 where channel.isActive {
                loop.advanceTime(by: .milliseconds(600))
                try collect(from: channel, into: &output)
            }
            _ = try? channel.finish()
            try collect(from: channel, into: &output)
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("the embedded connection failed: \(error)")
        }
        return output
    }

    private static func collect(from channel: EmbeddedChannel, into output: inout [UInt8]) throws {
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            output += buffer.readableBytesView
        }
    }
}
