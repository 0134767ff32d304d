import RPCCore
import Testing

@testable import RPCHTTP2

@Suite("OutboundBody: framed messages read out in pieces of any size")
struct OutboundBodyTests {
    /// Messages of many sizes, plain and compressed, and bytes queued already framed.
    static let payloads: [(bytes: [UInt8], compressed: Bool?)] = [
        ([], false),
        ([7], true),
        (Array(0..<100), false),
        (Array(repeating: 0xAB, count: 3), nil),
        ((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }, true),
        (Array("{}".utf8), false),
    ]

    /// What the body must send: each message framed by `MessageFramer`, raw bytes as they are.
    static var expected: [UInt8] {
        payloads.flatMap { payload, compressed -> [UInt8] in
            guard let compressed else { return payload }
            var framed: [UInt8] = []
            MessageFramer.appendPrefix(to: &framed, compressed: compressed, length: payload.count)
            return framed + payload
        }
    }

    @Test("the bytes read equal the messages framed one after another", arguments: [1, 2, 5, 6, 7, 16_384])
    func readsInPieces(bufferSize: Int) {
        var body = OutboundBody()
        for (payload, compressed) in Self.payloads {
            if let compressed { body.appendMessage(payload, compressed: compressed) } else { body.append(payload) }
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
