import CatalogAPI
import CatalogStore
import Foundation
import Synchronization
import Testing

@testable import CatalogStorePostgres

/// What the observer is told when states come from local commits and from the listener, in
/// any order and any number of times.
@Suite("Filter feed")
struct FilterFeedTests {
    static func state(_ revision: Int64, filter: String = "f") -> (state: FilterState, step: FilterStep) {
        let state = FilterState(
            filterId: filter, title: "F", options: [], revision: revision, updatedAt: Date(timeIntervalSince1970: Double(revision)))
        return (state, FilterStep(to: state, edits: []))
    }

    /// What an observer was told, as text.
    final class Told: Sendable {
        private let lines = Mutex<[String]>([])

        func record(_ change: FilterChange) {
            switch change {
            case .updated(let state, _): lines.withLock { $0.append("\(state.filterId)@\(state.revision)") }
            case .deleted(let id): lines.withLock { $0.append("\(id) deleted") }
            }
        }

        var all: [String] { lines.withLock { $0 } }
    }

    /// A feed and what its observer was told.
    static func feed() -> (FilterFeed, Told) {
        let feed = FilterFeed()
        let told = Told()
        feed.setObserver { told.record($0) }
        return (feed, told)
    }

    @Test("each revision is told once, in order, whichever path offers it first")
    func onceInOrder() {
        let (feed, told) = Self.feed()
        #expect(feed.offer([Self.state(1)], of: "f", acceptingGap: false))
        #expect(feed.offer((1...3).map { Self.state($0) }, of: "f", acceptingGap: true))
        #expect(feed.offer([Self.state(2)], of: "f", acceptingGap: false), "already told: nothing to do")
        #expect(told.all == ["f@1", "f@2", "f@3"])
        #expect(feed.told("f")?.state == Self.state(3).state)
    }

    @Test("a local commit that does not follow what was told is refused, for the caller to read what lies between")
    func gapRefused() {
        let (feed, told) = Self.feed()
        feed.offer([Self.state(1)], of: "f", acceptingGap: false)
        #expect(!feed.offer([Self.state(3)], of: "f", acceptingGap: false))
        #expect(!feed.offer([Self.state(4)], of: "g", acceptingGap: false), "an unknown filter starts at revision 1")
        #expect(feed.offer([Self.state(2), Self.state(3)], of: "f", acceptingGap: true))
        #expect(feed.offer([Self.state(6)], of: "f", acceptingGap: true), "the listener may skip what the database no longer holds")
        #expect(told.all == ["f@1", "f@2", "f@3", "f@6"])
    }

    @Test("a deletion is told once, states read before it are not told after it, and a new definition is")
    func deletion() {
        let (feed, told) = Self.feed()
        feed.offer([Self.state(1), Self.state(2)], of: "f", acceptingGap: true)
        feed.offerDeletion(of: "f", revision: 3)
        feed.offerDeletion(of: "f", revision: 3)
        feed.offer([Self.state(3)], of: "f", acceptingGap: true)
        #expect(feed.offer([Self.state(4)], of: "f", acceptingGap: false))
        feed.offerDeletion(of: "f", revision: 2)
        #expect(told.all == ["f@1", "f@2", "f deleted", "f@4"])
    }

    @Test("before an observer is set nothing is told, but what was offered counts as told")
    func beforeObserver() {
        let feed = FilterFeed()
        #expect(!feed.hasObserver)
        feed.offer([Self.state(5)], of: "f", acceptingGap: true)
        let told = Told()
        feed.setObserver { told.record($0) }
        #expect(feed.hasObserver)
        feed.offer([Self.state(5), Self.state(6)], of: "f", acceptingGap: false)
        #expect(told.all == ["f@6"])
    }
}
