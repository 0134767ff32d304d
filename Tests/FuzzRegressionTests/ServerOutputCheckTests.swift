@testable import FuzzTargets
import Testing

/// The connection fuzzer's judge of what a server sent: it must refuse what a server must
/// never send, or the fuzzer finds nothing.
@Suite("ServerOutputCheck")
struct ServerOutputCheckTests {
    /// A frame: 9-byte header, then `payload`.
    private func frame(_ type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, _ payload: [UInt8] = []) -> [UInt8] {
        [UInt8(payload.count >> 16), UInt8(payload.count >> 8 & 0xFF), UInt8(payload.count & 0xFF), type, flags,
         UInt8(stream >> 24), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)] + payload
    }

    /// HPACK literals without indexing, new names (RFC 7541 §6.2.2).
    private func block(_ fields: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in fields {
            bytes += [0, UInt8(name.utf8.count)]
            bytes += Array(name.utf8)
            bytes.append(UInt8(value.utf8.count))
            bytes += Array(value.utf8)
        }
        return bytes
    }

    private var settings: [UInt8] { frame(4) }
    private var response: [UInt8] { frame(1, flags: 4, stream: 1, block([(":status", "200"), ("content-type", "application/grpc")])) }
    private var message: [UInt8] { frame(0, stream: 1, [0, 0, 0, 0, 2, 0x7B, 0x7D]) }
    private var connect: [UInt8] { frame(1, flags: 4, stream: 1, block([(":status", "200"), ("content-type", "application/json")])) }
    private var trailers: [UInt8] { frame(1, flags: 5, stream: 1, block([("grpc-status", "0")])) }

    @Test("a whole response passes, and a trailers-only one, and RST_STREAM after the end")
    func valid() {
        #expect(throws: Never.self) { try ServerOutputCheck.check(settings + response + message + trailers) }
        let trailersOnly = frame(1, flags: 5, stream: 1, block([(":status", "200"), ("grpc-status", "5")]))
        #expect(throws: Never.self) { try ServerOutputCheck.check(settings + trailersOnly + frame(3, stream: 1, [0, 0, 0, 0])) }
    }

    @Test("Connect and gRPC-Web responses end in their body, a Connect unary one with no grpc-status")
    func endedByBody() {
        for contentType in ["application/json", "application/cbor; charset=utf-8", "application/connect+json", "application/grpc-web+json"] {
            let head = frame(1, flags: 4, stream: 1, block([(":status", "200"), ("content-type", contentType)]))
            #expect(throws: Never.self) { try ServerOutputCheck.check(settings + head + frame(0, flags: 1, stream: 1, [0x7B, 0x7D])) }
        }
        let connectError = frame(1, flags: 5, stream: 1, block([(":status", "404"), ("content-type", "application/json")]))
        #expect(throws: Never.self) { try ServerOutputCheck.check(settings + connectError) }
    }

    @Test("what a server must not send fails", arguments: [
        "no SETTINGS first", "DATA before HEADERS", "a cut frame", "an even stream", "no grpc-status at the end",
        "a frame after the end", "headers without :status first", "DATA ending the stream",
        "trailers after a Connect body", "a gRPC-Web answer without grpc-status", "DATA after a Connect end",
    ])
    func invalid(kind: String) {
        let output: [UInt8] =
            switch kind {
            case "no SETTINGS first": response + trailers
            case "DATA before HEADERS": settings + message
            case "a cut frame": settings + Array(response.dropLast())
            case "an even stream": settings + frame(1, flags: 5, stream: 2, block([(":status", "200"), ("grpc-status", "0")]))
            case "no grpc-status at the end": settings + response + frame(1, flags: 5, stream: 1, block([("x", "y")]))
            case "a frame after the end": settings + response + trailers + message
            case "headers without :status first": settings + frame(1, flags: 4, stream: 1, block([("content-type", "application/grpc")]))
            case "trailers after a Connect body": settings + connect + frame(0, stream: 1, [0x7B, 0x7D]) + trailers
            case "a gRPC-Web answer without grpc-status":
                settings + frame(1, flags: 5, stream: 1, block([(":status", "200"), ("content-type", "application/grpc-web")]))
            case "DATA after a Connect end": settings + connect + frame(0, flags: 1, stream: 1, [0x7B, 0x7D]) + message
            default: settings + response + frame(0, flags: 1, stream: 1, [0, 0, 0, 0, 0])
            }
        #expect(throws: FuzzFailure.self) { try ServerOutputCheck.check(output) }
    }
}
