import CatalogAPI
import RPCCore
import RPCFraming
import RPCHTTP2
import RPCHTTP2Core

/// What the fuzzer (`Fuzz/`, libFuzzer) and the corpus regression tests feed our parsers.
///
/// Each entry point takes arbitrary bytes, runs them through the code that reads a peer's
/// input, and checks its promises: it either succeeds or fails with an `RPCError` of the
/// status the contract gives that failure. A broken promise is a `FuzzFailure`; the fuzzer
/// turns it into a crash, so libFuzzer saves the input.
public enum FuzzTargets {
    /// The limit the deframer runs with: small, so that oversize messages are easy to reach.
    public static let maxMessageSize = 4096

    /// Chooses the target by the first byte: even, the deframer; odd below 128, a request's
    /// JSON; odd from 129, a request's CBOR (the method chosen by the other bits).
    public static func run(_ input: [UInt8]) throws(FuzzFailure) {
        guard let first = input.first else { return }
        let rest = Array(input.dropFirst())
        if first % 2 == 0 {
            try deframe(rest, gzip: first & 2 != 0, chunkSeed: Int(first >> 2))
        } else {
            let methods = CatalogContract.methods
            let requestType = methods[Int(first >> 1 & 0x3F) % methods.count].requestType
            try decodeRequest(rest, as: requestType, codec: first < 128 ? JSONCodec() : CBORCodec())
        }
    }

    /// Feeds `bytes` to a deframer in pieces whose sizes come from `chunkSeed`, then ends the
    /// stream. Every message must be within the limit, and, without compression, framing the
    /// messages again must give back the bytes consumed.
    public static func deframe(_ bytes: [UInt8], gzip: Bool, chunkSeed: Int) throws(FuzzFailure) {
        var deframer = MessageDeframer(maxMessageSize: maxMessageSize, compression: gzip ? .gzip : .identity)
        var messages: [[UInt8]] = []
        var offset = 0
        var chunk = chunkSeed % 7 + 1
        do {
            while offset < bytes.count {
                let end = min(offset + chunk, bytes.count)
                try deframer.append(Array(bytes[offset..<end]))
                offset = end
                chunk = chunk * 3 % 17 + 1
                while let message = try deframer.next() {
                    guard message.count <= maxMessageSize else {
                        throw FuzzFailure("a message of \(message.count) bytes passed the limit of \(maxMessageSize)")
                    }
                    messages.append(message)
                }
            }
            try deframer.checkEndOfStream()
        } catch let error as RPCError {
            try expect(error, in: [.internalError, .resourceExhausted], "the deframer")
            return
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("the deframer threw \(error)")
        }
        if !gzip {
            let reframed = messages.flatMap { FramedMessage($0, compression: .identity).bytes }
            guard reframed == bytes else {
                throw FuzzFailure("framing the \(messages.count) messages again does not give the input back")
            }
        }
    }

    /// Decodes `bytes` as a `type` request the way the server does with `codec`. When that
    /// succeeds, the message encoded again must decode too; in CBOR, the encoding must be the
    /// deterministic one. A message with generated readers must accept exactly what its
    /// `Codable` conformance accepts, as the same value.
    public static func decodeRequest<Request: Codable & Sendable>(
        _ bytes: [UInt8], as type: Request.Type, codec: any MessageCodec = JSONCodec()
    ) throws(FuzzFailure) {
        if let comparable = Request.self as? any (Codable & Hashable).Type {
            try compareWithCodable(comparable, bytes, codec: codec)
        }
        let request: Request
        do {
            request = try codec.decode(type, from: bytes)
        } catch {
            try expect(error, in: [.invalidArgument], "decoding \(type)")
            return
        }
        do {
            let encoded = try codec.encode(request)
            _ = try codec.decode(type, from: encoded)
            if codec is CBORCodec, CBORWriter.encode(try CBORReader.decode(encoded)) != encoded {
                throw FuzzFailure("\(type) encoded to CBOR that is not deterministic")
            }
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("\(type) decoded, but its encoding does not decode again: \(error)")
        }
    }

    private static func compareWithCodable<Message: Codable & Hashable>(
        _ type: Message.Type, _ bytes: [UInt8], codec: any MessageCodec
    ) throws(FuzzFailure) {
        let generated = try? codec.decode(Message.self, from: bytes)
        let codable = try? codec.decode(ThroughCodable<Message>.self, from: bytes).message
        guard generated == codable else {
            throw FuzzFailure("\(Message.self): the generated reader reads \(String(describing: generated)), Codable \(String(describing: codable))")
        }
    }

    private static func expect(_ error: RPCError, in codes: Set<StatusCode>, _ what: String) throws(FuzzFailure) {
        guard codes.contains(error.code) else {
            throw FuzzFailure("\(what) failed with \(error.code), expected one of \(codes): \(error.message)")
        }
    }
}

/// A promise the code under fuzzing broke.
public struct FuzzFailure: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// A message through its `Codable` conformance only: the codecs see no generated path.
private struct ThroughCodable<Message: Codable & Hashable>: Codable, Hashable {
    var message: Message
    init(from decoder: any Decoder) throws { message = try Message(from: decoder) }
    func encode(to encoder: any Encoder) throws { try message.encode(to: encoder) }
}
