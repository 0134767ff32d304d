import CatalogStore
import RPCCore

/// Counts the open Watch streams in all, per connection and per caller, and refuses one past
/// a limit of `FilterHub.Limits`, so that one caller cannot take every slot.
///
/// The narrowest limit reached is the one named: the connection's, then the caller's, then
/// the server's.
struct WatchQuota {
    /// Whose slot a stream takes: its connection's and its caller's.
    struct Holder: Hashable, Sendable {
        let connection: UInt64
        let caller: Caller

        /// The holder of a call made in `context`: the caller is the authorizer's name for
        /// it (a token's name), else the peer's IP address.
        init(_ context: ServerContext) {
            connection = context.connection.number
            caller = context.caller.map(Caller.named) ?? .address(context.connection.peerAddress ?? "an unknown address")
        }
    }

    /// Whom the per-caller limit counts.
    enum Caller: Hashable, Sendable {
        /// A caller the authorizer named: a token's name.
        case named(String)
        /// An anonymous caller (a server without tokens), by the peer's IP address.
        case address(String)
    }

    let limits: FilterHub.Limits
    /// Streams open now.
    private(set) var total = 0
    private var perConnection: [UInt64: Int] = [:]
    private var perCaller: [Caller: Int] = [:]

    init(limits: FilterHub.Limits) {
        self.limits = limits
    }

    /// Takes a slot for `holder`; when a limit is reached, takes nothing and returns the
    /// RESOURCE_EXHAUSTED `tooManySubscribers` that names it.
    mutating func take(for holder: Holder) -> CatalogError? {
        let perConnectionLimit = limits.maxSubscribersPerConnection
        let perCallerLimit = limits.effectiveMaxSubscribersPerCaller
        if perConnection[holder.connection, default: 0] >= perConnectionLimit {
            return .tooManySubscribers(
                "too many Watch subscribers on this connection (per-connection limit \(perConnectionLimit))",
                scope: "connection", limit: perConnectionLimit)
        }
        if perCaller[holder.caller, default: 0] >= perCallerLimit {
            let who = switch holder.caller {
            case .named(let name): "for the caller '\(name)'"
            case .address(let address): "from \(address)"
            }
            return .tooManySubscribers(
                "too many Watch subscribers \(who) (per-caller limit \(perCallerLimit))", scope: "caller", limit: perCallerLimit)
        }
        if total >= limits.maxSubscribers {
            return .tooManySubscribers(
                "too many Watch subscribers on the server (server limit \(limits.maxSubscribers))",
                scope: "server", limit: limits.maxSubscribers)
        }
        total += 1
        perConnection[holder.connection, default: 0] += 1
        perCaller[holder.caller, default: 0] += 1
        return nil
    }

    /// Gives back the slot `holder` took.
    mutating func release(_ holder: Holder) {
        total -= 1
        Self.decrement(&perConnection, holder.connection)
        Self.decrement(&perCaller, holder.caller)
    }

    /// Subtracts one from `key`'s count, forgetting the key at zero.
    private static func decrement<Key: Hashable>(_ counts: inout [Key: Int], _ key: Key) {
        let remaining = counts[key, default: 1] - 1
        counts[key] = remaining > 0 ? remaining : nil
    }
}
