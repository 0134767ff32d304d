/// A connection's open call streams by id, on its loop.
///
/// The stream opened last is also kept aside: a request's frames (its HEADERS, each header
/// field, its DATA) come right after it opens, and finding it there skips hashing the id.
package struct CallTable {
    private var byID: [Int32: CallStream] = [:]
    private var newest: CallStream?

    package subscript(id: Int32) -> CallStream? {
        if let newest, newest.id == id { return newest }
        return byID[id]
    }

    var values: Dictionary<Int32, CallStream>.Values { byID.values }
    var count: Int { byID.count }
    package var isEmpty: Bool { byID.isEmpty }

    mutating func insert(_ stream: CallStream) {
        byID[stream.id] = stream
        newest = stream
    }

    mutating func remove(_ id: Int32) -> CallStream? {
        if newest?.id == id { newest = nil }
        return byID.removeValue(forKey: id)
    }

    mutating func removeAll() {
        byID.removeAll()
        newest = nil
    }
}
