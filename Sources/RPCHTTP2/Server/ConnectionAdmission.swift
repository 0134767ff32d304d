import RPCCallLayer
/// Counts a server's connections, in all and per peer address, and decides for each new one
/// whether it is served, refused with an answer, or closed at once.
struct ConnectionAdmission {
    /// What becomes of a new connection.
    enum Decision: Hashable {
        /// Served.
        case admitted
        /// Answered with the refusal, then closed (`ConnectionRefusal`).
        case refused(ConnectionRefusal)
        /// Closed at once without a word: the server is shutting down, or already answers
        /// `maxRefusing` refused connections.
        case dropped
    }

    /// The most connections served at once.
    let maxConnections: Int
    /// The most connections served at once from one peer address.
    let maxPerPeer: Int
    /// The most refused connections being answered at once.
    let maxRefusing: Int
    /// Connections served now.
    private(set) var open = 0
    /// Refused connections being answered now.
    private(set) var refusing = 0
    private var perPeer: [String: Int] = [:]
    /// Once set, every new connection is dropped.
    var shuttingDown = false

    init(maxConnections: Int, maxPerPeer: Int, maxRefusing: Int) {
        self.maxConnections = maxConnections
        self.maxPerPeer = maxPerPeer
        self.maxRefusing = maxRefusing
    }

    /// Decides about a new connection from the address `peer` and counts it; give the
    /// decision back to `closed(_:peer:)` when the connection closes.
    mutating func admit(peer: String) -> Decision {
        if shuttingDown { return .dropped }
        let refusal: ConnectionRefusal
        if open >= maxConnections {
            refusal = .serverFull(limit: maxConnections)
        } else if perPeer[peer, default: 0] >= maxPerPeer {
            refusal = .peerFull(peer, limit: maxPerPeer)
        } else {
            open += 1
            perPeer[peer, default: 0] += 1
            return .admitted
        }
        guard refusing < maxRefusing else { return .dropped }
        refusing += 1
        return .refused(refusal)
    }

    /// A connection that `admit(peer:)` decided about has closed.
    mutating func closed(_ decision: Decision, peer: String) {
        switch decision {
        case .admitted:
            open -= 1
            let remaining = perPeer[peer, default: 1] - 1
            perPeer[peer] = remaining > 0 ? remaining : nil
        case .refused:
            refusing -= 1
        case .dropped:
            break
        }
    }
}
