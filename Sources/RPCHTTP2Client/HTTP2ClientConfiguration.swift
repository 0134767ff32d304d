import RPCCore

/// Settings of an `HTTP2ClientConnection`.
public struct HTTP2ClientConfiguration: Sendable, Hashable {
    /// Largest response message in bytes, before and after decompression. Default 4 MiB.
    public var maxReceiveMessageSize: Int
    /// Receive window of each stream, in bytes. Default 1 MiB.
    public var streamWindowSize: Int
    /// Receive window of the connection, in bytes. Default 16 MiB.
    public var connectionWindowSize: Int
    /// Buffered request bytes per call above which `send` waits. Default 64 KiB.
    public var streamWriteBufferSize: Int
    /// How long connecting, the TLS handshake included, may take. Default 10 s.
    public var connectTimeout: Duration
    /// Interval between keepalive PINGs, sent only when nothing was received since the last
    /// one; `nil` disables them. Default 60 s.
    public var keepaliveInterval: Duration?
    /// How long a keepalive PING may stay unanswered before the connection is closed and its
    /// calls fail with UNAVAILABLE. Default 20 s.
    public var keepaliveTimeout: Duration
    /// The `content-type` of requests, which chooses how messages are encoded. Default
    /// `application/grpc` (JSON), which every gRPC server accepts; `application/grpc+cbor` for
    /// CBOR.
    public var contentType: String
    /// The gRPC content type of the codec given to ``use(_:)``, if it was given one.
    private var customContentType: ContentType? = nil
    /// The trailer that carries an error's ``ErrorDetail``: the one the service's server names.
    /// Default ``ErrorDetailNames/generic``.
    public var errorDetailNames: ErrorDetailNames = .generic
    /// TLS with ALPN `h2`, verifying the server's certificate; `nil` connects over cleartext
    /// HTTP/2 with prior knowledge. Default `nil`. A build without the package's `ClientTLS`
    /// trait has no TLS: connecting with this set fails.
    public var tls: ClientTLS? = nil

    /// Whether connections use TLS.
    var usesTLS: Bool { tls != nil }

    /// Sends calls in a codec of one's own, which the server registered as well
    /// (`Router.additionalCodecs`): sets ``contentType`` to `application/grpc+name`.
    public mutating func use(_ codec: any MessageCodec) {
        let contentType = ContentType.grpc(codec)
        customContentType = contentType
        self.contentType = contentType.headerValue
    }

    /// What ``contentType`` names: a built-in type, or that of the codec given to ``use(_:)``.
    var resolvedContentType: ContentType? {
        ContentType(headerValue: contentType) ?? customContentType.flatMap { $0.headerValue == contentType ? $0 : nil }
    }

    /// The defaults documented on each property.
    public static var defaults: HTTP2ClientConfiguration {
        HTTP2ClientConfiguration(
            maxReceiveMessageSize: 4 * 1024 * 1024,
            streamWindowSize: 1024 * 1024,
            connectionWindowSize: 16 * 1024 * 1024,
            streamWriteBufferSize: 64 * 1024,
            connectTimeout: .seconds(10),
            keepaliveInterval: .seconds(60),
            keepaliveTimeout: .seconds(20),
            contentType: "application/grpc"
        )
    }
}
