/// Header fields of one header block, with the RFC 9113 size accounting that enforces
/// SETTINGS_MAX_HEADER_LIST_SIZE. Fields past the limit are dropped and remembered.
package struct HeaderList {
    package private(set) var fields: [(name: String, value: String)] = []
    package private(set) var size = 0
    package private(set) var overflowed = false
    package let limit: Int

    package init(limit: Int) { self.limit = limit }

    package mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        size += name.count + value.count + 32
        guard size <= limit else {
            overflowed = true
            fields.removeAll()
            return
        }
        fields.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
    }

    package func first(_ name: String) -> String? {
        fields.first { $0.name == name }?.value
    }
}
