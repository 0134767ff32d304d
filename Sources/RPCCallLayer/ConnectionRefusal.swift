import RPCCore

/// Why a new connection is refused: a connection limit was reached.
///
/// The refused connection still speaks HTTP/2 for a moment, so that a gRPC client learns why:
/// the streams it opens at once are answered RESOURCE_EXHAUSTED with `message` and the reason
/// `tooManyConnections` (trailers-only), then GOAWAY ENHANCE_YOUR_CALM with `message` as debug
/// data ends the connection.
package struct ConnectionRefusal: Hashable, Sendable {
    /// Which limit refused the connection.
    enum Limit: Hashable, Sendable {
        /// `HTTP2ServerConfiguration.maxConnections`.
        case server
        /// `HTTP2ServerConfiguration.maxConnectionsPerPeer`.
        case peer
    }

    let limit: Limit
    /// The limit's value.
    let maximum: Int
    /// What the client is told, e.g. `too many connections from 127.0.0.1 (limit 100)`.
    package let message: String

    /// The server holds `limit` connections already.
    package static func serverFull(limit: Int) -> ConnectionRefusal {
        ConnectionRefusal(limit: .server, maximum: limit, message: "too many connections to the server (limit \(limit))")
    }

    /// The peer at `address` holds `limit` connections already.
    package static func peerFull(_ address: String, limit: Int) -> ConnectionRefusal {
        ConnectionRefusal(limit: .peer, maximum: limit, message: "too many connections from \(address) (limit \(limit))")
    }

    /// The status of the streams answered on the refused connection.
    package var trailers: ResponseTrailers {
        ResponseTrailers(
            code: .resourceExhausted, message: message,
            detail: ErrorDetail(reason: "tooManyConnections", details: ["limit": .integer(Int64(maximum))]))
    }
}
