import Synchronization

/// The bytes a server's connections hold for unfinished calls beyond each connection's first
/// `BufferedBytes.granule`, against `HTTP2ServerConfiguration.maxBufferedBytes`. Connections
/// take and give back whole granules, so calls with small messages never touch it.
package final class BufferedBytesPool: Sendable {
    let limit: Int
    private let used = Atomic<Int>(0)

    package init(limit: Int) {
        self.limit = limit
    }

    /// Bytes taken now.
    var inUse: Int { used.load(ordering: .relaxed) }

    /// Takes `count` bytes; `false`, taking none, when that would pass the limit.
    func take(_ count: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            guard current + count <= limit else { return false }
            let (exchanged, original) = used.compareExchange(
                expected: current, desired: current + count, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    func give(_ count: Int) {
        used.subtract(count, ordering: .relaxed)
    }
}

/// What one connection holds for its unfinished calls (request bytes not yet made into
/// messages, response bytes not yet sent) against its own budget
/// (`HTTP2ServerConfiguration.maxBufferedBytesPerConnection`) and the server's pool.
package struct BufferedBytes {
    /// The pool is charged in granules, the first one of each connection free.
    static let granule = 64 * 1024

    let limit: Int
    let pool: BufferedBytesPool
    /// Bytes held now.
    private(set) var held = 0
    /// Bytes taken from the pool.
    private var charged = 0

    init(limit: Int, pool: BufferedBytesPool) {
        self.limit = limit
        self.pool = pool
    }

    /// Whether the connection holds more than its budget, or more than the pool granted it:
    /// it must take no new call and shed what it holds until it fits again.
    var isOverBudget: Bool { held > limit || held > charged + Self.granule }

    /// Notes that the connection holds `delta` bytes more (or fewer, when negative).
    mutating func change(by delta: Int) {
        held += delta
        let wanted = max(0, (held + Self.granule - 1) / Self.granule - 1) * Self.granule
        if wanted < charged {
            pool.give(charged - wanted)
            charged = wanted
        } else if wanted > charged, pool.take(wanted - charged) {
            charged = wanted
        }
    }
}
