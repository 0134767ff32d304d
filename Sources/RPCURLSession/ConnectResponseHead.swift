import Foundation
import RPCCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a Connect response's head says: its HTTP status, its content type and coding, and the
/// metadata in its headers (Connect unary sends trailing metadata as `trailer-` headers).
struct ConnectResponseHead: Sendable {
    var status: Int
    /// `content-type`, lower-cased, without parameters.
    var contentType: String
    /// `content-encoding`, lower-cased; `nil` when absent.
    var contentEncoding: String?
    /// The custom headers, as the response's initial metadata.
    var headerMetadata: Metadata
    /// The `trailer-` headers without their prefix: a unary call's trailing metadata.
    var trailerMetadata: Metadata

    init(_ response: HTTPURLResponse) {
        status = response.statusCode
        var fields: [(name: String, value: String)] = []
        for (key, value) in response.allHeaderFields {
            guard let name = key as? String else { continue }
            fields.append((name.lowercased(), value as? String ?? "\(value)"))
        }
        // Foundation hands the headers over as a dictionary; sorted, the metadata is the same
        // from one response to the next.
        fields.sort { $0.name < $1.name }
        let type = fields.first { $0.name == "content-type" }?.value ?? ""
        contentType = type.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        contentEncoding = fields.first { $0.name == "content-encoding" }?.value.lowercased()
        headerMetadata = Metadata()
        trailerMetadata = Metadata()
        for (name, value) in fields {
            if name.hasPrefix("trailer-") {
                trailerMetadata.addReceived(String(name.dropFirst("trailer-".count)), value)
            } else if !Self.isProtocolHeader(name) {
                headerMetadata.addReceived(name, value)
            }
        }
    }

    /// Whether a header named `name` belongs to HTTP or Connect rather than to the call's metadata.
    private static func isProtocolHeader(_ name: String) -> Bool {
        name.hasPrefix("connect-") || Self.httpHeaders.contains(name)
    }

    /// Headers of HTTP itself that a server or URLSession may add to any response.
    private static let httpHeaders: Set<String> = [
        "content-encoding", "accept-encoding", "date", "server", "vary", "via", "allow", "accept-post",
        "access-control-allow-origin", "access-control-expose-headers", "access-control-allow-credentials",
    ]
}
