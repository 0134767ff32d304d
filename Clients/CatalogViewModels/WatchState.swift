import CatalogKit

/// How a ``FilterModel`` is connected to its filter's Watch: what a view shows beside the
/// filter, e.g. a spinner while `.connecting`, a "reconnecting…" banner, an error to retry from.
public enum WatchState: Sendable, Hashable {
    /// ``FilterModel/run()`` has not received the first event yet (or has not started).
    case connecting
    /// The Watch delivers the filter's changes: what the model shows is current.
    case live
    /// The stream was lost with this error (UNAVAILABLE, or INTERNAL `streamReset`); the Watch
    /// waits its backoff and resumes from the last revision the model received. What the
    /// model shows may be out of date until the next event makes it `.live` again.
    case reconnecting(RPCError)
    /// The Watch ended with an error it cannot resume from (NOT_FOUND: the filter was deleted;
    /// an auth error; OUT_OF_RANGE…; CANCELLED once the client is closed):
    /// ``FilterModel/run()`` returned. Run it again to retry.
    case failed(RPCError)
}
