/// Per-call settings of a client call.
public struct CallOptions: Sendable {
    /// How long a call may take.
    public enum TimeLimit: Sendable, Hashable {
        /// None of the call's own: a client that lays these options over defaults takes the
        /// defaults' limit; on its own, no deadline.
        case inherited
        /// No deadline, whatever the defaults say.
        case noTimeout
        /// At most this long; sent as `grpc-timeout`.
        case timeout(Duration)
    }

    /// How long the call may take. Default `.inherited`.
    public var timeLimit: TimeLimit
    /// Custom request metadata, e.g. `authorization`.
    public var metadata: Metadata
    /// The compression of request messages (`grpc-encoding`). Default: identity.
    public var compression: CompressionAlgorithm

    /// Options with `timeout` as the time limit (`.inherited` when `nil`).
    public init(timeout: Duration? = nil, metadata: Metadata = [:], compression: CompressionAlgorithm = .identity) {
        self.timeLimit = timeout.map(TimeLimit.timeout) ?? .inherited
        self.metadata = metadata
        self.compression = compression
    }

    /// The call's deadline as a duration, sent as `grpc-timeout`; `nil` when it has none of
    /// its own (`.inherited` or `.noTimeout`). Setting a duration sets `.timeout`, setting
    /// `nil` sets `.inherited`.
    public var timeout: Duration? {
        get {
            if case .timeout(let duration) = timeLimit { duration } else { nil }
        }
        set {
            timeLimit = newValue.map(TimeLimit.timeout) ?? .inherited
        }
    }

    /// No deadline of its own, no metadata, no compression.
    public static var defaults: CallOptions { CallOptions() }
}
