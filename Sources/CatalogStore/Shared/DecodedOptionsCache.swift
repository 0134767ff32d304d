import CatalogAPI
import Synchronization

/// Filter options already decoded, by their JSON text.
///
/// A filter's explicit options are read from the database at start, and whenever a write finds
/// the filter newer than the state it holds (another replica wrote it); most writes (Select,
/// presentation) keep the options, so their text is the one decoded last time. Looking the text
/// up costs a hash and a comparison, far less than decoding it again. Keyed by the text itself,
/// an entry is never stale, whatever transaction read it; the cache empties itself past
/// `maxBytes` of text.
package final class DecodedOptionsCache: Sendable {
    private let entries = Mutex(Entries())
    private let maxBytes: Int

    private struct Entries {
        var byText: [String: [FilterOption]] = [:]
        var bytes = 0
    }

    package init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// The options `json` holds: cached, or decoded by `decode` and remembered.
    package func options(for json: String, decode: (String) throws -> [FilterOption]) rethrows -> [FilterOption] {
        if let cached = entries.withLock({ $0.byText[json] }) { return cached }
        let options = try decode(json)
        let size = json.utf8.count
        guard size <= maxBytes else { return options }
        entries.withLock { entries in
            if entries.bytes + size > maxBytes { entries = Entries() }
            entries.byText[json] = options
            entries.bytes += size
        }
        return options
    }
}
