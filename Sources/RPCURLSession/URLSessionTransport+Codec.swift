import RPCCore

extension URLSessionTransport {
    /// How a ``URLSessionTransport`` encodes messages: JSON or CBOR. The calls return the same
    /// values either way.
    public struct Codec: Hashable, Sendable, CustomStringConvertible {
        private let isCBOR: Bool

        private init(isCBOR: Bool) { self.isCBOR = isCBOR }

        /// JSON: Connect's `application/json` and `application/connect+json`.
        public static var json: Codec { Codec(isCBOR: false) }
        /// CBOR (RFC 8949): `application/cbor` and `application/connect+cbor`.
        public static var cbor: Codec { Codec(isCBOR: true) }

        /// The gRPC content type `RPCClient` reads to choose its codec: `application/grpc`
        /// (JSON) or `application/grpc+cbor`. The transport never sends it.
        var clientContentType: ContentType { isCBOR ? .grpcCBOR : .grpc }

        /// The Connect content type of a call of `kind` on the wire.
        func wireContentType(_ kind: StreamingKind) -> ContentType {
            switch (kind.serverStreaming, isCBOR) {
            case (false, false): .connectJSON
            case (false, true): .connectCBOR
            case (true, false): .connectStreamingJSON
            case (true, true): .connectStreamingCBOR
            }
        }

        /// `json` or `cbor`.
        public var description: String { isCBOR ? "cbor" : "json" }
    }
}
