/// The resources a server answers, by path, with their answers made once. Two tables are
/// equal when they answer the same paths with the same fields and bodies.
package struct ResourceTable: Sendable, Hashable {
    /// One resource's answers.
    struct Entry: Sendable {
        let etag: String
        /// The `200` answer's fields, `:status` first.
        let fields: [(name: String, value: String)]
        let body: [UInt8]

        /// The `304` answer's fields, for a client that already holds this version.
        var notModifiedFields: [(name: String, value: String)] {
            [(":status", "304"), ("etag", etag), ("cache-control", ResourceTable.cacheControl)]
        }
    }

    /// Every answer is revalidated: a new build of the server serves its own files at once.
    static let cacheControl = "no-cache"

    private let entries: [String: Entry]
    /// What the table was made from.
    package let resources: [HTTPResource]

    var isEmpty: Bool { entries.isEmpty }

    package init(_ resources: [HTTPResource]) {
        var entries: [String: Entry] = [:]
        for resource in resources {
            let etag = "\"\(Self.digest(resource.body))\""
            let fields =
                [
                    (":status", "200"), ("content-type", resource.contentType), ("etag", etag),
                    ("cache-control", Self.cacheControl), ("x-content-type-options", "nosniff"),
                ] + resource.headerFields
            entries[resource.path] = Entry(etag: etag, fields: fields, body: resource.body)
        }
        self.entries = entries
        self.resources = resources
    }

    /// The resource a `GET` of `path` (its query ignored) answers with, if any.
    func entry(for path: String) -> Entry? {
        guard !entries.isEmpty else { return nil }
        if let entry = entries[path] { return entry }
        guard let mark = path.firstIndex(of: "?") else { return nil }
        return entries[String(path[..<mark])]
    }

    package static func == (lhs: ResourceTable, rhs: ResourceTable) -> Bool {
        lhs.entries.count == rhs.entries.count
            && lhs.entries.allSatisfy { path, entry in
                rhs.entries[path].map { $0.body == entry.body && $0.fields.elementsEqual(entry.fields, by: ==) } ?? false
            }
    }

    package func hash(into hasher: inout Hasher) {
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            hasher.combine(path)
            hasher.combine(entry.etag)
        }
    }

    /// FNV-1a, 64 bits, in hex: enough to tell two versions of a file apart.
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
