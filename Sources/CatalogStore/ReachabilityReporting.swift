/// A store whose database is elsewhere, may become unreachable, and says when: `catalogd`'s
/// health then reports NOT_SERVING while its database cannot be reached.
public protocol ReachabilityReporting: Sendable {
    /// Whether the database can be reached now, then each change, until the task reading the
    /// sequence is cancelled.
    func reachabilityChanges() -> AsyncStream<Bool>
}
