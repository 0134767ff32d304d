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
    /// The connection the call came on.
    public var connection: ConnectionIdentity
    /// Who the router's authorizer says is calling (e.g. a token's name), once it let the
    /// call run; `nil` for an anonymous call.
    public var caller: String?

    /// - Parameter connection: by default a connection of its own.
    package init(
        path: String,
        contentType: ContentType,
        metadata: Metadata,
        deadline: ContinuousClock.Instant?,
        peer: String,
        connection: ConnectionIdentity = .next(peerAddress: nil),
        caller: String? = nil
    ) {
        self.path = path
        self.contentType = contentType
        self.metadata = metadata
        self.deadline = deadline
        self.peer = peer
        self.connection = connection
        self.caller = caller
    }
}
