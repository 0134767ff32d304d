import CatalogAPI
import Foundation
import Testing

@testable import CatalogStorePostgres

/// When the PostgreSQL store may keep and serve what it read of categories and items.
@Suite("PostgreSQL read caches")
struct ReadCacheTests {
    static let categories = [
        Category(
            id: 1, name: "Family", slug: "family", color: "#E91E63", icon: nil, position: 0, isDefault: true, itemCount: 0,
            revision: 1, createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))
    ]
    static let item = Item(
        id: 7, title: "Dune", summary: nil, level: nil, duration: nil, price: nil, imageURL: nil, categoryId: nil,
        createdAt: Date(timeIntervalSince1970: 0), updatedAt: Date(timeIntervalSince1970: 0))

    /// A category cache whose listener is connected.
    static func listening() -> CategoryCache {
        let cache = CategoryCache()
        cache.generation.setListening(true)
        return cache
    }

    @Test("a read is kept and served until anything moves the stamp")
    func keptUntilChanged() throws {
        let cache = Self.listening()
        let stamp = try #require(cache.generation.current)
        cache.keep(Self.categories, readAt: stamp)
        #expect(cache.categories(at: stamp) == Self.categories)
        cache.generation.changedElsewhere()
        let next = try #require(cache.generation.current)
        #expect(cache.categories(at: next) == nil, "another replica's notice drops it")
    }

    @Test("nothing is kept while the listener is not connected: another replica's change could go unheard")
    func notListening() throws {
        #expect(CategoryCache().generation.current == nil)
        let cache = Self.listening()
        let stamp = try #require(cache.generation.current)
        cache.generation.setListening(false)
        cache.keep(Self.categories, readAt: stamp)
        #expect(cache.generation.current == nil)
        cache.generation.setListening(true)
        #expect(cache.categories(at: try #require(cache.generation.current)) == nil)
    }

    @Test("a read overlapping a local write is not kept, nor one begun while a write was under way")
    func localWrites() throws {
        let cache = Self.listening()
        let before = try #require(cache.generation.current)
        cache.generation.commitBegins()
        #expect(cache.generation.current == nil, "no read may be kept while a write is under way")
        cache.keep(Self.categories, readAt: before)
        cache.generation.commitEnds()
        let after = try #require(cache.generation.current)
        #expect(cache.categories(at: after) == nil)
        cache.keep(Self.categories, readAt: after)
        #expect(cache.categories(at: after) == Self.categories)
    }

    @Test("items are kept by id under the same rules, and all dropped when items change")
    func items() throws {
        let cache = ItemCache()
        cache.generation.setListening(true)
        let stamp = try #require(cache.generation.current)
        cache.keep(Self.item, readAt: stamp)
        #expect(cache.item(7, at: stamp) == Self.item)
        #expect(cache.item(8, at: stamp) == nil)
        cache.generation.changedElsewhere()
        let next = try #require(cache.generation.current)
        #expect(cache.item(7, at: next) == nil)
        cache.keep(Self.item, readAt: stamp)
        #expect(cache.item(7, at: next) == nil, "a read from before the change is not kept")
    }
}
