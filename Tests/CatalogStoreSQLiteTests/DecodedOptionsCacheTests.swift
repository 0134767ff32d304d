import CatalogAPI
import CatalogStore
import Synchronization
import Testing

@testable import CatalogStoreSQLite

@Suite("Decoded filter options cache")
struct DecodedOptionsCacheTests {
    @Test("a text is decoded once, and another text gets its own options")
    func decodesEachTextOnce() throws {
        let cache = DecodedOptionsCache(maxBytes: 1 << 20)
        let decodes = Mutex(0)
        let decode: (String) throws -> [FilterOption] = { json in
            decodes.withLock { $0 += 1 }
            return [FilterOption(id: Int64(json.count), title: json)]
        }
        let first = try cache.options(for: "[a]", decode: decode)
        let again = try cache.options(for: "[a]", decode: decode)
        let other = try cache.options(for: "[bb]", decode: decode)
        #expect(first == again)
        #expect(other == [FilterOption(id: 4, title: "[bb]")])
        #expect(decodes.withLock { $0 } == 2)
    }

    @Test("past its size the cache starts over, and a text larger than it is never kept")
    func staysBounded() throws {
        let cache = DecodedOptionsCache(maxBytes: 10)
        let decodes = Mutex(0)
        let decode: (String) throws -> [FilterOption] = { json in
            decodes.withLock { $0 += 1 }
            return [FilterOption(id: 1, title: json)]
        }
        _ = try cache.options(for: "123456", decode: decode)
        _ = try cache.options(for: "abcdef", decode: decode)  // 12 bytes: the first goes
        _ = try cache.options(for: "abcdef", decode: decode)
        _ = try cache.options(for: "123456", decode: decode)
        #expect(decodes.withLock { $0 } == 3)
        _ = try cache.options(for: String(repeating: "x", count: 11), decode: decode)
        _ = try cache.options(for: String(repeating: "x", count: 11), decode: decode)
        #expect(decodes.withLock { $0 } == 5)
    }

    @Test("a decoding error is thrown and nothing is kept")
    func errorsAreNotCached() {
        let cache = DecodedOptionsCache(maxBytes: 100)
        struct Bad: Error {}
        #expect(throws: Bad.self) { try cache.options(for: "{", decode: { _ in throw Bad() }) }
        #expect(throws: Bad.self) { try cache.options(for: "{", decode: { _ in throw Bad() }) }
    }
}
