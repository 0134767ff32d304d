/// A connection's open streams by id, on its event loop.
///
/// The stream opened last is also kept aside: a request's frames (its HEADERS, each header
/// field, its DATA) come right after it opens, and finding it there skips hashing the id.
struct StreamTable {
    private var byID: [Int32: ServerStream] = [:]
    private var newest: ServerStream?

    subscript(id: Int32) -> ServerStream? {
        if let newest, newest.id == id { return newest }
        return byID[id]
    }

    var values: Dictionary<Int32, ServerStream>.Values { byID.values }
    var count: Int { byID.count }
    var isEmpty: Bool { byID.isEmpty }

    mutating func insert(_ stream: ServerStream) {
        byID[stream.id] = stream
        newest = stream
    }

    mutating func remove(_ id: Int32) -> ServerStream? {
        if newest?.id == id { newest = nil }
        return byID.removeValue(forKey: id)
    }

    mutating func removeAll() {
        byID.removeAll()
        newest = nil
    }
}
