import RPCCore
import Testing

@testable import RPCFraming
@testable import RPCHTTP2
@testable import RPCHTTP2Core

@Suite("OutboundBody: framed messages read out in pieces of any size")
struct OutboundBodyTests {
    /// Messages of many sizes, plain and compressed, and bytes queued already framed.
    static let payloads: [(bytes: [UInt8], compression: CompressionAlgorithm?)] = [
        ([], .identity),
        ([7], .gzip),
        (Array(0..<100), .identity),
        (Array(repeating: 0xAB, count: 3), nil),
        ((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }, .gzip),
        (Array("{}".utf8), .identity),
    ]

    /// What the body must send: each message framed by `FramedMessage`, raw bytes as they are.
    static var expected: [UInt8] {
        payloads.flatMap { payload, compression -> [UInt8] in
            guard let compression else { return payload }
            return FramedMessage(payload, compression: compression).bytes
        }
    }

    @Test("the bytes read equal the messages framed one after another", arguments: [1, 2, 5, 6, 7, 16_384])
    func readsInPieces(bufferSize: Int) {
        var body = OutboundBody()
        for (payload, compression) in Self.payloads {
            if let compression { body.appendMessage(payload, compression: compression) } else { body.append(payload) }
        }
        let expected = Self.expected
        #expect(body.count == expected.count)

        var sent: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        while !body.isEmpty {
            let count = buffer.withUnsafeMutableBytes { body.read(into: $0, lowWatermark: 0) }
            #expect(count > 0)
            sent += buffer[..<count]
        }
        #expect(sent == expected)
        #expect(body.count == 0)
    }
}
