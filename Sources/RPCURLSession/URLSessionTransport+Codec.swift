import RPCCore

extension URLSessionTransport {
    /// How a ``URLSessionTransport`` encodes messages: JSON, CBOR, or a codec of one's own.
    /// The calls return the same values either way.
    public struct Codec: Hashable, Sendable, CustomStringConvertible {
        /// The gRPC content type `RPCClient` reads to choose its codec. The transport never sends it.
        let clientContentType: ContentType
        private let unary: ContentType
        private let streaming: ContentType

        private init(client: ContentType, unary: ContentType, streaming: ContentType) {
            self.clientContentType = client
            self.unary = unary
            self.streaming = streaming
        }

        /// JSON: Connect's `application/json` and `application/connect+json`.
        public static var json: Codec { Codec(client: .grpc, unary: .connectJSON, streaming: .connectStreamingJSON) }
        /// CBOR (RFC 8949): `application/cbor` and `application/connect+cbor`.
        public static var cbor: Codec { Codec(client: .grpcCBOR, unary: .connectCBOR, streaming: .connectStreamingCBOR) }

        /// A codec of one's own, which the server registered too (`Router.additionalCodecs`):
        /// Connect's `application/name` and `application/connect+name`.
        public static func custom(_ codec: any MessageCodec) -> Codec {
            Codec(
                client: .grpc(codec), unary: .of(codec, framing: .connectUnary), streaming: .of(codec, framing: .connectStreaming))
        }

        /// The Connect content type of a call of `kind` on the wire.
        func wireContentType(_ kind: StreamingKind) -> ContentType {
            kind.serverStreaming ? streaming : unary
        }

        /// The codec's name: `json`, `cbor`, or that of a codec of one's own.
        public var description: String { unary.codecName }
    }
}
