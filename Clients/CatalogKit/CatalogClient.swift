import CatalogAPI
import RPCCore

/// A client of `catalogd`, with one typed client per service.
///
/// One `CatalogClient` multiplexes every call over a single HTTP/2 connection. When that
/// connection is lost (say the server restarted), the next call connects again, waiting a
/// jittered, growing delay between failed attempts; idempotent reads are retried on
/// UNAVAILABLE, writes never are. Share one client between tasks and close it when done.
///
/// ```swift
/// let catalog = try await CatalogClient.connect(host: "127.0.0.1", port: 50051, bearerToken: token)
/// let books = try await catalog.categories.create(name: "Books", icon: "book")
/// let page = try await catalog.items.list(categoryId: books.id, options: .timeout(.seconds(2)))
/// await catalog.close()
/// ```
///
/// Every method, and every sequence a method returns, throws `RPCError` (declared as untyped
/// `throws`, which every shape of `catch` compiles against): its `code` is the gRPC status,
/// `message` the server's text, and `reason`, `field` and `details` the contract's
/// machine-readable detail:
///
/// ```swift
/// do {
///     _ = try await catalog.categories.create(name: "Books")
/// } catch let error as RPCError where error.code == .alreadyExists && error.reason == "duplicateName" {
///     print("taken by category \(error.details["id"]?.int64Value ?? 0)")
/// }
/// ```
public final class CatalogClient: Sendable {
    /// The connections it made itself; `nil` for a transport it was given.
    private let connections: (any OwnedConnections)?
    private let runner: CallRunner
    private let reconnectBackoff: Backoff
    /// Whether ``withResponse(_:)`` lent this client: closing it is its lender's business.
    private let isLent: Bool

    /// A client of `transport`, which is `connections` when the client made them.
    init(transport: any ClientTransport, connections: (any OwnedConnections)?, configuration: Configuration) {
        self.connections = connections
        self.reconnectBackoff = configuration.reconnectBackoff
        self.isLent = false
        self.runner = CallRunner(
            rpc: RPCClient(transport: transport, interceptors: configuration.interceptors),
            defaults: configuration.defaultCallOptions,
            retry: configuration.retry,
            tokenProvider: configuration.tokenProvider
        )
    }

    /// A client lent by ``withResponse(_:)``: the same calls, no connections of its own to close.
    private init(lending runner: CallRunner, reconnectBackoff: Backoff) {
        self.connections = nil
        self.runner = runner
        self.reconnectBackoff = reconnectBackoff
        self.isLent = true
    }

    /// A client whose calls go through `transport` rather than connections of its own: an
    /// `InProcessTransport` runs them against the services in this process, which is how the
    /// `CatalogTesting` library gives app code's tests a real catalog with no server. Its
    /// `configuration.connection` is not used; ``close(gracePeriod:)`` leaves `transport` to its owner.
    ///
    /// - Parameters:
    ///   - transport: Where the calls go.
    ///   - bearerToken: A token sent with every call unless a call's options carry another.
    ///   - configuration: Default call options, retries, and the backoff of a Watch's resumes.
    public convenience init(transport: any ClientTransport, bearerToken: String? = nil, configuration: Configuration = .defaults) {
        var configuration = configuration
        if let bearerToken { configuration.defaultCallOptions.bearerToken = bearerToken }
        self.init(transport: transport, connections: nil, configuration: configuration)
    }

    /// The `catalog.v1.Catalog` service: the items.
    public var items: ItemsClient { ItemsClient(runner: runner) }

    /// The `catalog.v1.Categories` service.
    public var categories: CategoriesClient { CategoriesClient(runner: runner) }

    /// The `catalog.v1.Filters` service, with a resuming ``FiltersClient/watch(_:sinceRevision:delivery:heartbeatSeconds:options:onInterruption:)``.
    public var filters: FiltersClient { FiltersClient(runner: runner, resumeBackoff: reconnectBackoff) }

    /// The `catalog.v1.Reflection` service: the machine-readable contract.
    public var reflection: ReflectionClient { ReflectionClient(runner: runner) }

    /// The `grpc.health.v1.Health` service: whether the server, or one of its services, is serving.
    public var health: HealthClient { HealthClient(runner: runner) }

    /// Any method by its path, with JSON bytes in and out: see ``RawCallsClient``.
    public var raw: RawCallsClient { RawCallsClient(runner: runner) }

    /// The state of the connection the client made: `.idle` (none yet, or the last one was
    /// lost), `.connecting`, `.ready`, `.transientFailure` (the last attempt failed) or
    /// `.shutdown`. A client made with ``init(transport:bearerToken:configuration:)`` has no
    /// connection of its own and says `.ready`.
    public var connectionState: ConnectionState { connections?.connectionState ?? .ready }

    /// The state of the connection the client made now, then each change, for an app's
    /// offline banner; the sequence ends when the client is closed. A lost connection is
    /// `.idle` at once; the next call (or a Watch resuming) connects again. A client made with
    /// ``init(transport:bearerToken:configuration:)`` yields `.ready` and ends.
    ///
    /// ```swift
    /// for await state in catalog.connectionStates {
    ///     showOfflineBanner(state != .ready)
    /// }
    /// ```
    public var connectionStates: AsyncStream<ConnectionState> {
        if let connections { return connections.connectionStates() }
        return AsyncStream { continuation in
            continuation.yield(.ready)
            continuation.finish()
        }
    }

    /// Runs `body` with a client that keeps the response metadata of its unary calls, and
    /// returns what `body` returns with the response headers' and trailers' custom metadata of
    /// the last unary call it made (empty when it made none). The lent client makes its calls
    /// over this one's connection, with its configuration; it is for `body` only.
    ///
    /// ```swift
    /// let response = try await catalog.withResponse { try await $0.items.get(id: 42) }
    /// print(response.message.title, response.initialMetadata.first("x-served-by") ?? "-")
    /// ```
    ///
    /// A failed call's trailing metadata is the `metadata` of the `RPCError` it throws.
    ///
    /// - Parameter body: The calls, made with the client it is given.
    public func withResponse<Message: Sendable>(
        _ body: (CatalogClient) async throws -> Message
    ) async throws -> UnaryResponse<Message> {
        var runner = self.runner
        let recorder = ResponseRecorder()
        runner.recorder = recorder
        let message = try await body(CatalogClient(lending: runner, reconnectBackoff: reconnectBackoff))
        let metadata = recorder.recorded
        return UnaryResponse(message: message, initialMetadata: metadata?.initial ?? [:], trailingMetadata: metadata?.trailing ?? [:])
    }

    /// Ends the client's server streams, sends GOAWAY, lets open unary calls finish within
    /// `gracePeriod`, then closes the connection.
    ///
    /// A Watch being iterated, or waiting to resume, throws CANCELLED ("the client was
    /// closed"), as do streams opened after `close()`, and unary calls still open when the
    /// grace period ends; so do unary calls made after it on a client that made its own
    /// connection. A client made with ``init(transport:bearerToken:configuration:)`` has no
    /// connection of its own: its transport's owner closes that. Closing the client that
    /// ``withResponse(_:)`` lends does nothing.
    ///
    /// - Parameter gracePeriod: How long open unary calls may take to finish. Default 10 s.
    public func close(gracePeriod: Duration = .seconds(10)) async {
        guard !isLent else { return }
        runner.openStreams.closeAll()
        await connections?.close(gracePeriod: gracePeriod, error: OpenStreams.closedError)
    }
}
