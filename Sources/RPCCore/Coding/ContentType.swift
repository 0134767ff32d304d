/// A gRPC content type and the codec it selects.
public struct ContentType: Hashable, Sendable, CustomStringConvertible {
    /// The exact header value to echo back in the response.
    public let headerValue: String
    /// The codec's name: `json` or `cbor`.
    public let codecName: String

    /// `application/grpc`, read as JSON (so stock gRPC clients work unchanged).
    public static let grpc = ContentType(headerValue: "application/grpc", codecName: "json")
    /// `application/grpc+json`.
    public static let grpcJSON = ContentType(headerValue: "application/grpc+json", codecName: "json")
    /// `application/grpc+cbor`: the messages as CBOR.
    public static let grpcCBOR = ContentType(headerValue: "application/grpc+cbor", codecName: "cbor")

    /// Every content type a server of this package accepts, for each method.
    public static let all: [ContentType] = [.grpc, .grpcJSON, .grpcCBOR]

    private init(headerValue: String, codecName: String) {
        self.headerValue = headerValue
        self.codecName = codecName
    }

    /// Parses a `content-type` value; `nil` for any type without a codec here (answered with
    /// HTTP 415). Parameters such as `; charset=utf-8` are ignored.
    package init?(headerValue: String) {
        switch headerValue {  // the exact values every client sends: no parsing
        case "application/grpc":
            self = .grpc
            return
        case "application/grpc+json":
            self = .grpcJSON
            return
        case "application/grpc+cbor":
            self = .grpcCBOR
            return
        default:
            break
        }
        let essence = headerValue.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        switch essence {
        case "application/grpc": self = .grpc
        case "application/grpc+json": self = .grpcJSON
        case "application/grpc+cbor": self = .grpcCBOR
        default: return nil
        }
    }

    /// The codec for this content type.
    public var codec: any MessageCodec { codecName == "cbor" ? CBORCodec.shared : JSONCodec.shared }

    public var description: String { headerValue }
}

extension JSONCodec {
    /// One codec shared by every call; encoding and decoding keep no state between calls.
    public static let shared = JSONCodec()
}
