import Synchronization

/// What a handler knows about its call, and the response metadata it may set.
public struct ServerContext: Sendable {
    /// The method being called.
    public let method: MethodDescriptor
    /// The request's custom metadata.
    public let requestMetadata: Metadata
    /// When the call must be finished, if the client set a deadline.
    public let deadline: ContinuousClock.Instant?
    /// The peer's address.
    public let peer: String
    /// The request's content type; its codec encodes the responses.
    public let contentType: ContentType

    private let response = ResponseMetadata()

    init(method: MethodDescriptor, head: RequestHead) {
        self.method = method
        self.requestMetadata = head.metadata
        self.deadline = head.deadline
        self.peer = head.peer
        self.contentType = head.contentType
    }

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
