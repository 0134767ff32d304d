/// A request's content type: the protocol it speaks (gRPC, gRPC-Web or Connect) and the codec
/// it selects.
public struct ContentType: Hashable, Sendable, CustomStringConvertible {
    /// The exact header value to echo back in the response.
    public let headerValue: String
    /// The codec's name: `json` or `cbor`.
    public let codecName: String
    /// How the protocol frames the call's messages.
    package let framing: Framing

    /// How a protocol frames a call's messages and its end.
    package enum Framing: Hashable, Sendable {
        /// gRPC over HTTP/2: enveloped messages, the status in HTTP/2 trailers.
        case grpc
        /// gRPC-Web: enveloped messages, the status in a final trailer frame (flag 0x80).
        case grpcWeb
        /// gRPC-Web's text form: `grpcWeb`, base64 in both directions.
        case grpcWebText
        /// Connect unary: the bare message as the body, the status as the HTTP status.
        case connectUnary
        /// Connect streaming: enveloped messages, then an end-of-stream envelope (flag 0x02).
        case connectStreaming
    }

    /// `application/grpc`, read as JSON (so stock gRPC clients work unchanged).
    public static let grpc = ContentType("application/grpc", "json", .grpc)
    /// `application/grpc+json`.
    public static let grpcJSON = ContentType("application/grpc+json", "json", .grpc)
    /// `application/grpc+cbor`: the messages as CBOR.
    public static let grpcCBOR = ContentType("application/grpc+cbor", "cbor", .grpc)
    /// `application/json`: a Connect unary call in JSON.
    public static let connectJSON = ContentType("application/json", "json", .connectUnary)
    /// `application/cbor`: a Connect unary call in CBOR.
    public static let connectCBOR = ContentType("application/cbor", "cbor", .connectUnary)
    /// `application/connect+json`: a Connect streaming call in JSON.
    public static let connectStreamingJSON = ContentType("application/connect+json", "json", .connectStreaming)
    /// `application/connect+cbor`: a Connect streaming call in CBOR.
    public static let connectStreamingCBOR = ContentType("application/connect+cbor", "cbor", .connectStreaming)
    /// `application/grpc-web`, read as JSON.
    public static let grpcWeb = ContentType("application/grpc-web", "json", .grpcWeb)
    /// `application/grpc-web+json`.
    public static let grpcWebJSON = ContentType("application/grpc-web+json", "json", .grpcWeb)
    /// `application/grpc-web+cbor`.
    public static let grpcWebCBOR = ContentType("application/grpc-web+cbor", "cbor", .grpcWeb)
    /// `application/grpc-web-text`, read as JSON.
    public static let grpcWebText = ContentType("application/grpc-web-text", "json", .grpcWebText)
    /// `application/grpc-web-text+json`.
    public static let grpcWebTextJSON = ContentType("application/grpc-web-text+json", "json", .grpcWebText)
    /// `application/grpc-web-text+cbor`.
    public static let grpcWebTextCBOR = ContentType("application/grpc-web-text+cbor", "cbor", .grpcWebText)

    /// Every gRPC content type a server of this package accepts, for each method.
    public static let all: [ContentType] = [.grpc, .grpcJSON, .grpcCBOR]

    /// Every content type a server of this package accepts, gRPC-Web and Connect included.
    package static let everyProtocol: [ContentType] = all + [
        .connectJSON, .connectCBOR, .connectStreamingJSON, .connectStreamingCBOR, .grpcWeb, .grpcWebJSON, .grpcWebCBOR,
        .grpcWebText, .grpcWebTextJSON, .grpcWebTextCBOR,
    ]

    private static let byEssence = Dictionary(uniqueKeysWithValues: everyProtocol.map { ($0.headerValue, $0) })

    private init(_ headerValue: String, _ codecName: String, _ framing: Framing) {
        self.headerValue = headerValue
        self.codecName = codecName
        self.framing = framing
    }

    /// Parses a `content-type` value; `nil` for any type without a codec here (answered with
    /// HTTP 415). Parameters such as `; charset=utf-8` are ignored.
    package init?(headerValue: String) {
        switch headerValue {  // the exact values most clients send: no parsing
        case "application/grpc":
            self = .grpc
            return
        case "application/grpc+json":
            self = .grpcJSON
            return
        case "application/grpc+cbor":
            self = .grpcCBOR
            return
        case "application/json":
            self = .connectJSON
            return
        default:
            break
        }
        let essence = headerValue.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingHTTPWhitespace().lowercased()
        } ?? ""
        guard let known = Self.byEssence[essence] else { return nil }
        self = known
    }

    /// The Connect unary content type for a GET's `encoding` (`json` or `cbor`).
    package init?(connectEncoding: String) {
        switch connectEncoding {
        case "json": self = .connectJSON
        case "cbor": self = .connectCBOR
        default: return nil
        }
    }

    /// The codec for this content type.
    public var codec: any MessageCodec { codecName == "cbor" ? CBORCodec.shared : JSONCodec.shared }

    /// The protocol's name, as metrics label calls: `grpc`, `grpc_web` or `connect`.
    public var protocolName: String {
        switch framing {
        case .grpc: "grpc"
        case .grpcWeb, .grpcWebText: "grpc_web"
        case .connectUnary, .connectStreaming: "connect"
        }
    }

    public var description: String { headerValue }
}

extension JSONCodec {
    /// One codec shared by every call; encoding and decoding keep no state between calls.
    public static let shared = JSONCodec()
}
