import Foundation
import NIOHTTP1
import RPCCore
import Testing

@testable import RPCCallLayer
@testable import RPCFraming
@testable import RPCHTTP2
@testable import RPCHTTP2Core

/// Each protocol's decisions about a response, without sockets: heads, envelopes, ends,
/// and Connect's statuses and error JSON.
@Suite("Response framing by protocol")
struct ResponseFramingTests {
    /// A service's own names, so the tests see them used rather than the generic ones.
    static let detailNames = ErrorDetailNames(trailer: "acme-error-bin", connectType: "acme.v1.ErrorInfo")

    static let notFound = ResponseTrailers(
        code: .notFound, message: "no item 42", detail: ErrorDetail(reason: "notFound", details: ["id": .number(42)]),
        metadata: ["x-trace": "t1"])

    @Test("gRPC: a plain head, the status as trailers, and a head alone for an answer with no message")
    func grpc() {
        let framing = ResponseFraming(contentType: .grpcJSON, compression: .identity, detailNames: Self.detailNames)
        guard case .plain(.grpcJSON) = framing.streamingHead([:]) else { Issue.record("not plain"); return }
        #expect(framing.answersHeadOnly)
        #expect(!framing.headWaitsForEnd)
        #expect(framing.end(Self.notFound) == .trailers(Self.notFound))
    }

    @Test("gRPC-Web: the status in a trailer frame, flag 0x80, lower-case lines")
    func grpcWeb() throws {
        let framing = ResponseFraming(contentType: .grpcWebJSON, compression: .identity, detailNames: Self.detailNames)
        #expect(!framing.answersHeadOnly)
        guard case .body(let bytes) = framing.end(.ok()) else { Issue.record("no body end"); return }
        #expect(bytes == [0x80, 0, 0, 0, 16] + Array("grpc-status: 0\r\n".utf8))
        guard case .body(let error) = framing.end(Self.notFound) else { Issue.record("no body end"); return }
        let text = String(decoding: error.dropFirst(5), as: UTF8.self)
        #expect(text.hasPrefix("grpc-status: 5\r\ngrpc-message: no item 42\r\nacme-error-bin: "))
        #expect(text.hasSuffix("x-trace: t1\r\n"))
    }

    @Test("Connect streaming: the end-of-stream envelope holds {} or the error and the trailing metadata")
    func connectStreaming() throws {
        let framing = ResponseFraming(contentType: .connectStreamingJSON, compression: .identity, detailNames: Self.detailNames)
        guard case .body(let ok) = framing.end(.ok()) else { Issue.record("no body end"); return }
        #expect(ok == [0x02, 0, 0, 0, 2] + Array("{}".utf8))
        guard case .body(let failed) = framing.end(Self.notFound) else { Issue.record("no body end"); return }
        #expect(failed[0] == 0x02)
        let end = try JSONSerialization.jsonObject(with: Data(failed.dropFirst(5))) as? [String: Any]
        let error = end?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "not_found")
        #expect(error?["message"] as? String == "no item 42")
        #expect((end?["metadata"] as? [String: [String]])?["x-trace"] == ["t1"])
    }

    @Test("Connect unary: the HTTP status is the code's, the error a JSON body with the contract's detail")
    func connectUnary() throws {
        let framing = ResponseFraming(contentType: .connectJSON, compression: .identity, detailNames: Self.detailNames)
        #expect(framing.headWaitsForEnd)
        let success = framing.unaryAnswer(message: Array(#"{"id":1}"#.utf8), initialMetadata: ["x-a": "b"], trailers: .ok(["x-t": "u"]))
        guard case .fields(let fields) = success.head else { Issue.record("no fields"); return }
        #expect(fields.first! == (":status", "200"))
        #expect(fields.contains { $0 == ("x-a", "b") })
        #expect(fields.contains { $0 == ("trailer-x-t", "u") })
        #expect(success.body == Array(#"{"id":1}"#.utf8))

        let failure = framing.unaryAnswer(message: nil, initialMetadata: [:], trailers: Self.notFound)
        guard case .fields(let errorFields) = failure.head else { Issue.record("no fields"); return }
        #expect(errorFields.first! == (":status", "404"))
        #expect(errorFields.contains { $0 == ("content-type", "application/json") })
        let json = try JSONSerialization.jsonObject(with: Data(failure.body)) as? [String: Any]
        let detail = (json?["details"] as? [[String: Any]])?.first
        #expect(detail?["type"] as? String == "acme.v1.ErrorInfo")
        #expect((detail?["debug"] as? [String: Any])?["reason"] as? String == "notFound")
        let value = try #require(detail?["value"] as? String)
        #expect(!value.contains("="), "unpadded")
        #expect(Base64.decode(value).map { String(decoding: $0, as: UTF8.self) } == #"{"reason":"notFound","details":{"id":42}}"#)
    }

    @Test("a Connect unary answer of 1 KiB or more is gzipped when the client accepts it, a smaller one is not")
    func connectUnaryCompression() throws {
        let framing = ResponseFraming(contentType: .connectJSON, compression: .gzip, detailNames: Self.detailNames)
        let large = Array(repeating: UInt8(ascii: "a"), count: 4096)
        let compressed = framing.unaryAnswer(message: large, initialMetadata: [:], trailers: .ok())
        guard case .fields(let fields) = compressed.head else { Issue.record("no fields"); return }
        #expect(fields.contains { $0 == ("content-encoding", "gzip") })
        #expect(try Gzip.decompress(compressed.body, limit: 1 << 20) == large)
        let small = framing.unaryAnswer(message: Array("{}".utf8), initialMetadata: [:], trailers: .ok())
        #expect(small.body == Array("{}".utf8))
    }

    @Test("Connect's HTTP statuses are connect-go's", arguments: [
        (StatusCode.invalidArgument, 400), (.unauthenticated, 401), (.permissionDenied, 403), (.notFound, 404), (.alreadyExists, 409),
        (.aborted, 409), (.failedPrecondition, 400), (.resourceExhausted, 429), (.deadlineExceeded, 504), (.unavailable, 503),
        (.internalError, 500), (.unimplemented, 501), (.cancelled, 499), (.unknown, 500), (.dataLoss, 500), (.outOfRange, 400),
    ])
    func httpStatus(code: StatusCode, status: Int) {
        #expect(ConnectError.httpStatus(code) == status)
    }

    @Test("Connect's code names are snake case, CANCELLED spelled canceled")
    func codeNames() {
        #expect(StatusCode.notFound.connectName == "not_found")
        #expect(StatusCode.cancelled.connectName == "canceled")
        #expect(StatusCode.deadlineExceeded.connectName == "deadline_exceeded")
    }
}
