/// Per-call settings of a client call.
public struct CallOptions: Sendable {
    /// How long the call may take; sent as `grpc-timeout`. `nil`: no deadline.
    public var timeout: Duration?
    /// Custom request metadata, e.g. `authorization`.
    public var metadata: Metadata
    /// The compression of request messages (`grpc-encoding`). Default: identity.
    public var compression: CompressionAlgorithm

    public init(timeout: Duration? = nil, metadata: Metadata = [:], compression: CompressionAlgorithm = .identity) {
        self.timeout = timeout
        self.metadata = metadata
        self.compression = compression
    }

    /// No deadline, no metadata, no compression.
    public static var defaults: CallOptions { CallOptions() }
}
