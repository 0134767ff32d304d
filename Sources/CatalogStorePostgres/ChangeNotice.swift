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

    /// The payload, naming the replica that writes (`origin`), so that it can pass over its
    /// own notices: it told its observer and dropped its caches when it committed.
    func payload(from origin: String) -> String {
        switch self {
        case .categories: origin + " c"
        case .items: origin + " i"
        case .filter(let id): origin + " f " + id
        }
    }

    /// The notice in `payload` and the replica it came from; `nil` for a payload this version
    /// does not know (from a newer replica): ignored.
    static func parse(_ payload: String) -> (origin: Substring, notice: ChangeNotice)? {
        let parts = payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        switch (parts[1], parts.count) {
        case ("c", 2): return (parts[0], .categories)
        case ("i", 2): return (parts[0], .items)
        case ("f", 3): return (parts[0], .filter(String(parts[2])))
        default: return nil
        }
    }
}
