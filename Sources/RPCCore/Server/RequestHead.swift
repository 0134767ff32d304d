/// An inbound call as the transport parsed its headers.
public struct RequestHead: Sendable {
    /// The `:path`, e.g. `/grpc.health.v1.Health/Check`.
    public var path: String
    /// The request's content type, echoed in the response.
    public var contentType: ContentType
    /// Custom metadata (reserved headers removed).
    public var metadata: Metadata
    /// When the call must be finished, from `grpc-timeout`.
    public var deadline: ContinuousClock.Instant?
    /// The peer's address, for logs.
    public var peer: String

    public init(
        path: String,
        contentType: ContentType,
        metadata: Metadata,
        deadline: ContinuousClock.Instant?,
        peer: String
    ) {
        self.path = path
        self.contentType = contentType
        self.metadata = metadata
        self.deadline = deadline
        self.peer = peer
    }
}
