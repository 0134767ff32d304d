/// A request's content type: the protocol it speaks (gRPC, gRPC-Web or Connect) and the codec
/// it selects.
public struct ContentType: Hashable, Sendable, CustomStringConvertible {
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

    /// A tag, not stored strings: every call copies and compares its content type, and a tag
    /// costs no reference count or lazy global to do so. Its raw value is the header value.
    private enum Kind: String, CaseIterable {
        case grpc = "application/grpc"
        case grpcJSON = "application/grpc+json"
        case grpcCBOR = "application/grpc+cbor"
        case connectJSON = "application/json"
        case connectCBOR = "application/cbor"
        case connectStreamingJSON = "application/connect+json"
        case connectStreamingCBOR = "application/connect+cbor"
        case grpcWeb = "application/grpc-web"
        case grpcWebJSON = "application/grpc-web+json"
        case grpcWebCBOR = "application/grpc-web+cbor"
        case grpcWebText = "application/grpc-web-text"
        case grpcWebTextJSON = "application/grpc-web-text+json"
        case grpcWebTextCBOR = "application/grpc-web-text+cbor"
    }

    private let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// `application/grpc`, read as JSON (so stock gRPC clients work unchanged).
    public static var grpc: ContentType { ContentType(.grpc) }
    /// `application/grpc+json`.
    public static var grpcJSON: ContentType { ContentType(.grpcJSON) }
    /// `application/grpc+cbor`: the messages as CBOR.
    public static var grpcCBOR: ContentType { ContentType(.grpcCBOR) }
    /// `application/json`: a Connect unary call in JSON.
    public static var connectJSON: ContentType { ContentType(.connectJSON) }
    /// `application/cbor`: a Connect unary call in CBOR.
    public static var connectCBOR: ContentType { ContentType(.connectCBOR) }
    /// `application/connect+json`: a Connect streaming call in JSON.
    public static var connectStreamingJSON: ContentType { ContentType(.connectStreamingJSON) }
    /// `application/connect+cbor`: a Connect streaming call in CBOR.
    public static var connectStreamingCBOR: ContentType { ContentType(.connectStreamingCBOR) }
    /// `application/grpc-web`, read as JSON.
    public static var grpcWeb: ContentType { ContentType(.grpcWeb) }
    /// `application/grpc-web+json`.
    public static var grpcWebJSON: ContentType { ContentType(.grpcWebJSON) }
    /// `application/grpc-web+cbor`.
    public static var grpcWebCBOR: ContentType { ContentType(.grpcWebCBOR) }
    /// `application/grpc-web-text`, read as JSON.
    public static var grpcWebText: ContentType { ContentType(.grpcWebText) }
    /// `application/grpc-web-text+json`.
    public static var grpcWebTextJSON: ContentType { ContentType(.grpcWebTextJSON) }
    /// `application/grpc-web-text+cbor`.
    public static var grpcWebTextCBOR: ContentType { ContentType(.grpcWebTextCBOR) }

    /// The exact header value to echo back in the response.
    public var headerValue: String { kind.rawValue }

    /// Whether the messages are CBOR (JSON otherwise).
    private var isCBOR: Bool {
        switch kind {
        case .grpcCBOR, .connectCBOR, .connectStreamingCBOR, .grpcWebCBOR, .grpcWebTextCBOR: true
        case .grpc, .grpcJSON, .connectJSON, .connectStreamingJSON, .grpcWeb, .grpcWebJSON, .grpcWebText, .grpcWebTextJSON: false
        }
    }

    /// The codec's name: `json` or `cbor`.
    public var codecName: String { isCBOR ? "cbor" : "json" }

    /// How the protocol frames the call's messages.
    package var framing: Framing {
        switch kind {
        case .grpc, .grpcJSON, .grpcCBOR: .grpc
        case .grpcWeb, .grpcWebJSON, .grpcWebCBOR: .grpcWeb
        case .grpcWebText, .grpcWebTextJSON, .grpcWebTextCBOR: .grpcWebText
        case .connectJSON, .connectCBOR: .connectUnary
        case .connectStreamingJSON, .connectStreamingCBOR: .connectStreaming
        }
    }

    /// Every gRPC content type a server of this package accepts, for each method.
    public static let all: [ContentType] = [.grpc, .grpcJSON, .grpcCBOR]

    /// Every content type a server of this package accepts, gRPC-Web and Connect included.
    package static let everyProtocol: [ContentType] = Kind.allCases.map(ContentType.init)

    /// Parses a `content-type` value; `nil` for any type without a codec here (answered with
    /// HTTP 415). Parameters such as `; charset=utf-8` are ignored.
    package init?(headerValue: String) {
        if let kind = Kind(rawValue: headerValue) {  // the exact values most clients send: no parsing
            self.init(kind)
            return
        }
        let essence = headerValue.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingHTTPWhitespace().lowercased()
        } ?? ""
        guard let kind = Kind(rawValue: essence) else { return nil }
        self.init(kind)
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
    public var codec: any MessageCodec { isCBOR ? CBORCodec.shared : JSONCodec.shared }

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
