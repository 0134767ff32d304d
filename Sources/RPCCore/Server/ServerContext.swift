import Synchronization

/// What a handler knows about its call, and the response metadata it may set.
public struct ServerContext: Sendable {
    /// The method being called.
    public let method: MethodDescriptor
    /// The call's head, as the transport parsed it and the authorizer saw it.
    public let head: RequestHead

    private let response = ResponseMetadata()

    init(method: MethodDescriptor, head: RequestHead) {
        self.method = method
        self.head = head
    }

    /// The request's custom metadata.
    public var requestMetadata: Metadata { head.metadata }
    /// When the call must be finished, if the client set a deadline.
    public var deadline: ContinuousClock.Instant? { head.deadline }
    /// The peer's address.
    public var peer: String { head.peer }
    /// The request's content type; its codec encodes the responses.
    public var contentType: ContentType { head.contentType }
    /// The connection the call came on.
    public var connection: ConnectionIdentity { head.connection }
    /// Who the router's authorizer says is calling; `nil` for an anonymous call.
    public var caller: String? { head.caller }

    /// Adds metadata to the response headers; effective before the first message is sent.
    public func addInitialMetadata(_ key: String, _ value: Metadata.Value) {
        response.state.withLock { $0.initial.add(key, value) }
    }

    /// Adds metadata to the trailers of a successful call.
    public func addTrailingMetadata(_ key: String, _ value: Metadata.Value) {
        response.state.withLock { $0.trailing.add(key, value) }
    }

    var initialMetadata: Metadata { response.state.withLock { $0.initial } }
    var trailingMetadata: Metadata { response.state.withLock { $0.trailing } }
}

private final class ResponseMetadata: Sendable {
    let state = Mutex<(initial: Metadata, trailing: Metadata)>(([:], [:]))
}
