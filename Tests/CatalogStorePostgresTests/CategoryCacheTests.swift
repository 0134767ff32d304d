import CatalogAPI
import Foundation
import Testing

@testable import CatalogStorePostgres

/// When the PostgreSQL store may keep and serve its list of categories.
@Suite("PostgreSQL category cache")
struct CategoryCacheTests {
    static let categories = [
        Category(
            id: 1, name: "Family", slug: "family", color: "#E91E63", icon: nil, position: 0, isDefault: true, itemCount: 0,
            revision: 1, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
    ]

    /// A cache whose listener is connected.
    static func listening() -> CategoryCache {
        let cache = CategoryCache()
        cache.setListening(true)
        return cache
    }

    @Test("a read is kept and served until anything moves the generation")
    func keptUntilChanged() throws {
        let cache = Self.listening()
        let generation = try #require(cache.generation)
        cache.keep(Self.categories, readAt: generation)
        #expect(cache.categories(at: generation) == Self.categories)
        cache.changedElsewhere()
        let next = try #require(cache.generation)
        #expect(cache.categories(at: next) == nil, "another replica's notice drops it")
    }

    @Test("nothing is kept while the listener is not connected: another replica's change could go unheard")
    func notListening() throws {
        let cache = CategoryCache()
        #expect(cache.generation == nil)
        let cache2 = Self.listening()
        let generation = try #require(cache2.generation)
        cache2.setListening(false)
        cache2.keep(Self.categories, readAt: generation)
        #expect(cache2.generation == nil)
        cache2.setListening(true)
        #expect(cache2.categories(at: try #require(cache2.generation)) == nil)
    }

    @Test("a read overlapping a local category write is not kept, nor one begun while a write was under way")
    func localWrites() throws {
        let cache = Self.listening()
        let before = try #require(cache.generation)
        cache.commitBegins()
        #expect(cache.generation == nil, "no read may be kept while a write is under way")
        cache.keep(Self.categories, readAt: before)
        cache.commitEnds()
        let after = try #require(cache.generation)
        #expect(cache.categories(at: after) == nil)
        cache.keep(Self.categories, readAt: after)
        #expect(cache.categories(at: after) == Self.categories)
    }
}
