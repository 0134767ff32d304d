import Synchronization

/// The connection a call came on: which one, and from which address. Handlers use it to
/// share something fairly between connections and peers (e.g. a limit per connection).
///
/// ```swift
/// let connection = ConnectionIdentity.next(peerAddress: "192.0.2.7")
/// ```
public struct ConnectionIdentity: Sendable, Hashable {
    /// A number no other connection of the process has had.
    public let number: UInt64
    /// The peer's IP address without the port, e.g. `192.0.2.7` or `::1`; `nil` when the
    /// transport knows none.
    public let peerAddress: String?

    /// The identity of a new connection from `peerAddress`, with the next number.
    package static func next(peerAddress: String?) -> ConnectionIdentity {
        ConnectionIdentity(number: numbers.wrappingAdd(1, ordering: .relaxed).newValue, peerAddress: peerAddress)
    }

    private static let numbers = Atomic<UInt64>(0)
}
