import Foundation

/// The growing bytes of one encoding. Appends check the capacity and copy, nothing more: an
/// `Array` also checks on every append that its storage is not shared, which cost the encoder
/// a tenth of its time.
struct ByteOutput: ~Copyable {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        guard let storage = malloc(self.capacity) else { fatalError("out of memory for \(self.capacity) bytes of output") }
        self.storage = storage.assumingMemoryBound(to: UInt8.self)
    }

    deinit {
        free(storage)
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(toHold: bytes.count) }
        (storage + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    mutating func append(contentsOf text: some StringProtocol) {
        var text = String(text)
        text.withUTF8 { append($0) }
    }

    /// The last byte written, if any.
    var last: UInt8? { count == 0 ? nil : storage[count - 1] }

    /// Drops the bytes from `newCount` on.
    mutating func truncate(to newCount: Int) {
        precondition((0...count).contains(newCount))
        count = newCount
    }

    /// A copy of the bytes written.
    func bytes() -> [UInt8] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }

    /// Doubles the capacity with `realloc`, which moves the pages of a large buffer instead of
    /// copying them.
    @inline(never)
    private mutating func grow(toHold extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        guard let newStorage = realloc(storage, newCapacity) else { fatalError("out of memory for \(newCapacity) bytes of output") }
        storage = newStorage.assumingMemoryBound(to: UInt8.self)
        capacity = newCapacity
    }
}
