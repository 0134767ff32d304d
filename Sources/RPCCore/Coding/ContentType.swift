/// A request's content type: the protocol it speaks (gRPC, gRPC-Web or Connect) and the codec
/// it selects.
///
/// JSON and CBOR are built in; a codec of one's own adds its types (see ``every(of:)``).
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

    /// A content type of a codec registered beyond JSON and CBOR (see ``MessageCodec/name``).
    private final class Registered: Sendable {
        let headerValue: String
        let framing: Framing
        let codec: any MessageCodec

        init(headerValue: String, framing: Framing, codec: any MessageCodec) {
            self.headerValue = headerValue
            self.framing = framing
            self.codec = codec
        }
    }

    /// A built-in content type, which costs no reference count to copy, or a registered one.
    private enum Storage {
        case builtIn(Kind)
        case registered(Registered)
    }

    private let storage: Storage

    private init(_ kind: Kind) { self.storage = .builtIn(kind) }

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
    public var headerValue: String {
        switch storage {
        case .builtIn(let kind): kind.rawValue
        case .registered(let registered): registered.headerValue
        }
    }

    /// Whether the messages are CBOR (JSON otherwise).
    private static func isCBOR(_ kind: Kind) -> Bool {
        switch kind {
        case .grpcCBOR, .connectCBOR, .connectStreamingCBOR, .grpcWebCBOR, .grpcWebTextCBOR: true
        case .grpc, .grpcJSON, .connectJSON, .connectStreamingJSON, .grpcWeb, .grpcWebJSON, .grpcWebText, .grpcWebTextJSON: false
        }
    }

    /// The codec's name: `json`, `cbor`, or a registered codec's ``MessageCodec/name``.
    public var codecName: String {
        switch storage {
        case .builtIn(let kind): Self.isCBOR(kind) ? "cbor" : "json"
        case .registered(let registered): registered.codec.name
        }
    }

    /// How the protocol frames the call's messages.
    package var framing: Framing {
        switch storage {
        case .builtIn(let kind): Self.framing(of: kind)
        case .registered(let registered): registered.framing
        }
    }

    private static func framing(of kind: Kind) -> Framing {
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
        guard let kind = Kind(rawValue: Self.essence(of: headerValue)) else { return nil }
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
    public var codec: any MessageCodec {
        switch storage {
        case .builtIn(let kind): Self.isCBOR(kind) ? CBORCodec.shared : JSONCodec.shared
        case .registered(let registered): registered.codec
        }
    }

    /// How a registered codec's content types start, one per framing: its name follows.
    private static let registeredPrefixes: [(prefix: String, framing: Framing)] = [
        ("application/grpc+", .grpc),
        ("application/grpc-web+", .grpcWeb),
        ("application/grpc-web-text+", .grpcWebText),
        ("application/", .connectUnary),
        ("application/connect+", .connectStreaming),
    ]

    /// The content types of `codec` in every protocol, for a codec of one's own named `name`:
    /// `application/grpc+name`, `application/grpc-web+name`, `application/grpc-web-text+name`,
    /// `application/name` (Connect unary) and `application/connect+name`.
    public static func every(of codec: any MessageCodec) -> [ContentType] {
        registeredPrefixes.map { ContentType(codec, $0.prefix, $0.framing) }
    }

    /// The gRPC content type of `codec`: `application/grpc+name`.
    public static func grpc(_ codec: any MessageCodec) -> ContentType { of(codec, framing: .grpc) }

    /// The content type of `codec` that frames calls as `framing`.
    package static func of(_ codec: any MessageCodec, framing: Framing) -> ContentType {
        let prefix = registeredPrefixes.first { $0.framing == framing }!.prefix
        return ContentType(codec, prefix, framing)
    }

    private init(_ codec: any MessageCodec, _ prefix: String, _ framing: Framing) {
        storage = .registered(Registered(headerValue: prefix + codec.name, framing: framing, codec: codec))
    }

    /// Whether `name` can name a codec of one's own: a lowercase token (letters, digits, `.`,
    /// `_`, `-`) none of whose content types is built in.
    package static func isValidCodecName(_ name: String) -> Bool {
        let allowed = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        guard allowed, !name.isEmpty else { return false }
        return registeredPrefixes.allSatisfy { ContentType(headerValue: $0.prefix + name) == nil }
    }

    /// A header value without its parameters, trimmed and lowercased.
    package static func essence(of headerValue: String) -> String {
        headerValue.split(separator: ";", maxSplits: 1).first.map { $0.trimmingHTTPWhitespace().lowercased() } ?? ""
    }

    /// The protocol's name, as metrics label calls: `grpc`, `grpc_web` or `connect`.
    public var protocolName: String {
        switch framing {
        case .grpc: "grpc"
        case .grpcWeb, .grpcWebText: "grpc_web"
        case .connectUnary, .connectStreaming: "connect"
        }
    }

    public var description: String { headerValue }

    /// Equal when both are the same built-in type, or registered types with the same header value.
    public static func == (lhs: ContentType, rhs: ContentType) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.builtIn(let left), .builtIn(let right)): left == right
        case (.registered(let left), .registered(let right)): left.headerValue == right.headerValue
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .builtIn(let kind): hasher.combine(kind)
        case .registered(let registered): hasher.combine(registered.headerValue)
        }
    }
}

extension JSONCodec {
    /// One codec shared by every call; encoding and decoding keep no state between calls.
    public static let shared = JSONCodec()
}
