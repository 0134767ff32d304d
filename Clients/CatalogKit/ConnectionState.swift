import RPCCore

/// Where a ``CatalogClient``'s own connection stands, for an app's offline banner: see
/// ``CatalogClient/connectionStates``.
public enum ConnectionState: Sendable, Hashable {
    /// No connection: none was made yet (a client that connects lazily), or the last one was
    /// lost. The next call, or a Watch resuming, connects.
    case idle
    /// A connection attempt is under way.
    case connecting
    /// Connected: calls go out at once.
    case ready
    /// The last attempt failed with this error (UNAVAILABLE, saying why); calls fail until
    /// an attempt after the reconnect backoff succeeds.
    case transientFailure(RPCError)
    /// The client was closed.
    case shutdown
}

/// The connections a client made itself: it closes them, and reports their state.
package protocol OwnedConnections: Sendable {
    /// Closes them gracefully: calls still open after `gracePeriod` end with `error`; later
    /// calls fail with CANCELLED.
    func close(gracePeriod: Duration, error: RPCError) async
    /// Their state now.
    var connectionState: ConnectionState { get }
    /// Their state now, then each change, until the client is closed.
    func connectionStates() -> AsyncStream<ConnectionState>
}
