/// What a write tells the other replicas, as the payload of `NOTIFY catalog`: small (the
/// listener reads the states itself), and delivered by PostgreSQL only at commit, in commit
/// order.
enum ChangeNotice: Hashable, Sendable {
    /// The categories changed: drop what is kept of them.
    case categories
    /// Items changed: drop what is kept of them.
    case items
    /// A filter changed or was deleted: read what follows what was delivered.
    case filter(String)

    static let channel = "catalog"

    var payload: String {
        switch self {
        case .categories: "c"
        case .items: "i"
        case .filter(let id): "f:" + id
        }
    }

    /// `nil` for a payload this version does not know (from a newer replica): ignored.
    init?(payload: String) {
        if payload == "c" {
            self = .categories
        } else if payload == "i" {
            self = .items
        } else if payload.hasPrefix("f:") {
            self = .filter(String(payload.dropFirst(2)))
        } else {
            return nil
        }
    }
}
