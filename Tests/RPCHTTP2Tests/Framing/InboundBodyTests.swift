import RPCCore
import Testing

@testable import RPCFraming
@testable import RPCHTTP2Core

/// `InboundBody`'s flow-control credit: what it gives back at once and what it withholds while
/// the reader lags.
@Suite("InboundBody credit")
struct InboundBodyTests {
    /// Feeds `bytes` in pieces of `piece` bytes; `behind` says, for each message delivered,
    /// whether the reader is behind. Returns the credit given back for each piece.
    private static func credits(
        _ body: inout InboundBody, _ bytes: [UInt8], piece: Int, behind: (Int) -> Bool
    ) throws -> [Int] {
        var delivered = 0
        return try stride(from: 0, to: bytes.count, by: piece).map { start in
            let chunk = Array(bytes[start..<min(start + piece, bytes.count)])
            return try chunk.withUnsafeBytes { raw in
                try body.receive(raw) { _ in
                    delivered += 1
                    return behind(delivered)
                }
            }
        }
    }

    @Test("every byte is credited at once while the reader keeps up")
    func creditsWhileReaderKeepsUp() throws {
        var body = InboundBody(.envelopes, maxMessageSize: 1 << 20, compression: .identity)
        let message = FramedMessage(Array(repeating: 7, count: 40_000), compression: .identity).bytes
        let credits = try Self.credits(&body, message + message, piece: 16_384, behind: { _ in false })
        #expect(credits.reduce(0, +) == 2 * message.count)
        #expect(body.takeWithheldBytes() == 0)
    }

    @Test("once the reader is behind, the pieces of a message larger than a frame are withheld too, until it catches up")
    func withholdsPartialMessagesWhileBehind() throws {
        var body = InboundBody(.envelopes, maxMessageSize: 1 << 20, compression: .identity)
        let message = FramedMessage(Array(repeating: 7, count: 40_000), compression: .identity).bytes
        let all = message + message + message
        let credits = try Self.credits(&body, all, piece: 16_384, behind: { $0 >= 1 })
        // The piece that completed the first message said the reader was behind: from there on nothing is credited.
        let firstCompleted = (message.count - 1) / 16_384
        #expect(credits[firstCompleted...].allSatisfy { $0 == 0 }, "\(credits)")
        let withheld = body.takeWithheldBytes()
        #expect(credits.reduce(0, +) + withheld == all.count, "every byte is credited once: at once or when the reader caught up")
        let after = try Self.credits(&body, message, piece: 16_384, behind: { _ in false })
        #expect(after.reduce(0, +) == message.count, "credit flows again once the reader caught up")
    }
}
