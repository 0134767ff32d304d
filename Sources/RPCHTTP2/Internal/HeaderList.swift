/// Header fields of one header block, with the RFC 9113 size accounting that enforces
/// SETTINGS_MAX_HEADER_LIST_SIZE. Fields past the limit are dropped and remembered.
struct HeaderList {
    private(set) var fields: [(name: String, value: String)] = []
    private(set) var size = 0
    private(set) var overflowed = false
    let limit: Int

    init(limit: Int) { self.limit = limit }

    mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        size += name.count + value.count + 32
        guard size <= limit else {
            overflowed = true
            fields.removeAll()
            return
        }
        fields.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }

    func first(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }
}
