import CatalogAPI
import Foundation
import Testing

@testable import CatalogServices

/// The hub's per-filter history, told states by a store that may tell one twice (a replica
/// reading what it also committed), skip revisions it lost track of, or tell some while the
/// hub is still loading.
@Suite("Filter channel history")
struct FilterChannelTests {
    static func state(_ revision: Int64) -> FilterState {
        FilterState(
            filterId: "f", title: "F", options: [FilterOption(id: 1, title: "One")], selectedId: revision.isMultiple(of: 2) ? 1 : nil,
            revision: revision, updatedAt: Date(timeIntervalSince1970: Double(revision)))
    }

    static func channel(_ revisions: ClosedRange<Int64>) -> FilterChannel {
        FilterChannel(filterID: "f", history: revisions.map(state), retained: 1024)
    }

    /// The revision that follows `delivered`, or what the channel answers instead.
    static func next(_ channel: FilterChannel, after delivered: Int64) -> String {
        switch channel.successor(of: delivered, newest: false, codec: "json") {
        case .upToDate: "up to date"
        case .state(let state, _): "\(state.revision)"
        case .compacted(let oldest): "compacted, oldest \(oldest)"
        }
    }

    @Test("a state told again, or an older one, is ignored")
    func duplicates() {
        let channel = Self.channel(1...3)
        _ = channel.publish(Self.state(3))
        _ = channel.publish(Self.state(2))
        #expect(channel.current == Self.state(3))
        #expect(Self.next(channel, after: 0) == "1")
        #expect(Self.next(channel, after: 2) == "3")
        #expect(Self.next(channel, after: 3) == "up to date")
    }

    @Test("a state that skips revisions starts the history afresh: a subscriber behind it is told it is compacted")
    func gap() {
        let channel = Self.channel(1...3)
        _ = channel.publish(Self.state(6))
        #expect(channel.current == Self.state(6))
        #expect(Self.next(channel, after: 1) == "compacted, oldest 6")
        #expect(Self.next(channel, after: 5) == "6")
        _ = channel.publish(Self.state(7))
        #expect(Self.next(channel, after: 6) == "7")
    }

    @Test("a loaded history joins the states told while loading, whichever is newer")
    func merge() {
        let told = FilterChannel(filterID: "f", history: [], retained: 1024)
        _ = told.publish(Self.state(5))
        _ = told.publish(Self.state(6))
        told.merge((2...5).map(Self.state))
        #expect(told.current == Self.state(6))
        #expect(Self.next(told, after: 1) == "2")
        #expect(Self.next(told, after: 4) == "5")

        let newer = Self.channel(1...2)
        newer.merge((1...4).map(Self.state))
        #expect(newer.current == Self.state(4))
        #expect(Self.next(newer, after: 0) == "1")

        let apart = FilterChannel(filterID: "f", history: [], retained: 1024)
        _ = apart.publish(Self.state(8))
        apart.merge((1...3).map(Self.state))
        #expect(apart.current == Self.state(8))
        #expect(Self.next(apart, after: 3) == "compacted, oldest 8")
    }

    @Test("the change event is kept once per codec, so JSON and CBOR subscribers each share theirs")
    func eventPerCodec() {
        let channel = Self.channel(1...2)
        channel.cacheChangeEvent([1], revision: 2, codec: "json")
        channel.cacheChangeEvent([2], revision: 2, codec: "cbor")
        channel.cacheChangeEvent([3], revision: 2, codec: "cbor")
        for (codec, bytes) in [("json", [UInt8]([1])), ("cbor", [2])] {
            guard case .state(let state, let cached) = channel.successor(of: 1, newest: false, codec: codec) else {
                Issue.record("no successor for \(codec)")
                continue
            }
            #expect(state.revision == 2 && cached == bytes, "\(codec)")
        }
    }
}
