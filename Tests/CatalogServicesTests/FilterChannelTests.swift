import CatalogAPI
import CatalogStore
import Foundation
import Testing

@testable import CatalogServices

/// The hub's per-filter history: the current state and the steps before it, told by a store
/// that may tell one twice (a replica reading what it also committed), skip revisions it lost
/// track of, or tell some while the hub is still loading; older states rebuilt on demand.
@Suite("Filter channel history")
struct FilterChannelTests {
    /// A state whose options, selection and title all move with the revision: options come,
    /// go, move and are renamed.
    static func state(_ revision: Int64) -> FilterState {
        let count = Int(revision % 7) + 2
        let options = (0..<count).map { index -> FilterOption in
            let id = Int64((index * 3 + Int(revision) / 5) % 11)
            return FilterOption(id: id, title: "Option \(id)" + (revision.isMultiple(of: 3) ? " (r)" : ""), icon: index == 0 ? "star" : nil)
        }
        var unique: [FilterOption] = []
        for option in options where !unique.contains(where: { $0.id == option.id }) { unique.append(option) }
        return FilterState(
            filterId: "f", title: "F \(revision / 4)", options: revision.isMultiple(of: 5) ? unique.reversed() : unique,
            selectedId: revision.isMultiple(of: 2) ? unique.first?.id : nil, presentation: revision.isMultiple(of: 3) ? .collapsed : .expanded,
            revision: revision, updatedAt: Date(timeIntervalSince1970: Double(revision)))
    }

    static func step(_ revision: Int64) -> FilterStep {
        FilterStep(from: revision > 1 ? state(revision - 1) : nil, to: state(revision))
    }

    static let retention = FilterChannel.Retention(changes: 1024, bytes: 8 << 20)

    /// A channel that has published `revisions` and holds the history from their first.
    static func channel(_ revisions: ClosedRange<Int64>, retention: FilterChannel.Retention = retention) -> FilterChannel {
        let channel = FilterChannel(current: state(revisions.lowerBound), retention: retention)
        for revision in revisions.dropFirst() { _ = channel.publish(state(revision), step: step(revision)) }
        channel.prependHistory([step(revisions.lowerBound)])
        return channel
    }

    /// The revision that follows `delivered`, or what the channel answers instead.
    static func next(_ channel: FilterChannel, after delivered: Int64) -> String {
        switch channel.successor(of: delivered, newest: false, codec: "json") {
        case .upToDate: "up to date"
        case .state(let state): state == Self.state(state.revision) ? "\(state.revision)" : "\(state.revision), rebuilt wrong"
        case .encoded(let revision, _): "\(revision), encoded"
        case .compacted(let oldest): "compacted, oldest \(oldest)"
        }
    }

    @Test("every retained state is rebuilt exactly from the current one, in order, out of order and for the newest")
    func rebuild() {
        let channel = Self.channel(1...120)
        #expect((Int64(0)..<120).map { Self.next(channel, after: $0) } == (1...120).map { "\($0)" })
        var generator = SystemRandomNumberGenerator()
        for delivered in (Int64(0)..<120).shuffled(using: &generator) {
            #expect(Self.next(channel, after: delivered) == "\(delivered + 1)")
        }
        guard case .state(let newest) = channel.successor(of: 3, newest: true, codec: "json") else {
            Issue.record("no newest state")
            return
        }
        #expect(newest == Self.state(120))
    }

    @Test("a state told again, or an older one, is ignored")
    func duplicates() {
        let channel = Self.channel(1...3)
        _ = channel.publish(Self.state(3), step: Self.step(3))
        _ = channel.publish(Self.state(2), step: Self.step(2))
        #expect(channel.current == Self.state(3))
        #expect(Self.next(channel, after: 0) == "1")
        #expect(Self.next(channel, after: 2) == "3")
        #expect(Self.next(channel, after: 3) == "up to date")
    }

    @Test("a state that skips revisions starts the history afresh; the store's steps join it again")
    func gap() {
        let channel = Self.channel(1...3)
        _ = channel.publish(Self.state(6), step: FilterStep(to: Self.state(6), edits: []))
        #expect(channel.current == Self.state(6))
        #expect(Self.next(channel, after: 1) == "compacted, oldest 6")
        #expect(Self.next(channel, after: 5) == "6")
        _ = channel.publish(Self.state(7), step: Self.step(7))
        #expect(Self.next(channel, after: 6) == "7")
        channel.prependHistory((1...7).map(Self.step))
        #expect((0..<7).map { Self.next(channel, after: $0) } == (1...7).map { "\($0)" })
    }

    @Test("a channel loaded without history takes the store's steps that lead to what it holds, and only those")
    func loadedHistory() {
        let loaded = FilterChannel(current: Self.state(10), retention: Self.retention)
        _ = loaded.publish(Self.state(11), step: Self.step(11))
        #expect(Self.next(loaded, after: 9) == "compacted, oldest 11")
        loaded.prependHistory((4...12).map(Self.step))
        #expect(loaded.current == Self.state(11))
        #expect((3..<11).map { Self.next(loaded, after: $0) } == (4...11).map { "\($0)" })
        #expect(Self.next(loaded, after: 2) == "compacted, oldest 4")

        let apart = FilterChannel(current: Self.state(8), retention: Self.retention)
        apart.prependHistory((1...3).map(Self.step))
        #expect(Self.next(apart, after: 3) == "compacted, oldest 8", "steps that do not reach the current state are not joined")
    }

    @Test("a step that creates the filter anew starts the history afresh")
    func recreated() {
        let channel = Self.channel(1...5)
        _ = channel.publish(Self.state(6), step: FilterStep(from: nil, to: Self.state(6)))
        #expect(channel.current == Self.state(6))
        #expect(Self.next(channel, after: 5) == "6")
        #expect(Self.next(channel, after: 4) == "compacted, oldest 6")
    }

    @Test("a state read from the store replaces an older one told, not a newer")
    func offered() {
        let channel = Self.channel(1...5)
        channel.offer(Self.state(4))
        #expect(channel.current == Self.state(5))
        #expect(Self.next(channel, after: 1) == "2")
        channel.offer(Self.state(9))
        #expect(channel.current == Self.state(9))
        #expect(Self.next(channel, after: 5) == "compacted, oldest 9")
    }

    @Test("retention keeps the newest steps within both the count and the bytes, and always the newest")
    func retention() {
        let counted = Self.channel(1...40, retention: .init(changes: 10, bytes: 8 << 20))
        #expect(Self.next(counted, after: 30) == "31")
        #expect(Self.next(counted, after: 29) == "compacted, oldest 31")

        let sizes = (31...40).map { Self.step($0).storedSize }
        let budget = sizes.suffix(4).reduce(0, +)
        let sized = Self.channel(1...40, retention: .init(changes: 1024, bytes: budget))
        #expect(Self.next(sized, after: 36) == "37")
        #expect(Self.next(sized, after: 35) == "compacted, oldest 37")

        let tiny = Self.channel(1...5, retention: .init(changes: 1024, bytes: 1))
        #expect(Self.next(tiny, after: 4) == "5")
        #expect(Self.next(tiny, after: 3) == "compacted, oldest 5")
    }

    @Test("the change event is kept once per codec, so JSON and CBOR subscribers each share theirs")
    func eventPerCodec() {
        let channel = Self.channel(1...2)
        channel.cacheChangeEvent([1], revision: 2, previous: 1, codec: "json")
        channel.cacheChangeEvent([2], revision: 2, previous: 1, codec: "cbor")
        channel.cacheChangeEvent([3], revision: 2, previous: 1, codec: "cbor")
        for (codec, bytes) in [("json", [UInt8]([1])), ("cbor", [2])] {
            guard case .encoded(let revision, let cached) = channel.successor(of: 1, newest: false, codec: codec) else {
                Issue.record("no encoded successor for \(codec)")
                continue
            }
            #expect(revision == 2 && cached == bytes, "\(codec)")
        }
    }

    @Test("a latest subscriber that skipped to the newest state shares the event of those that skipped from the same revision")
    func eventPerPreviousRevision() {
        let channel = Self.channel(1...6)
        channel.cacheChangeEvent([4], revision: 6, previous: 4, codec: "json")
        channel.cacheChangeEvent([5], revision: 6, previous: 5, codec: "json")
        guard case .encoded(6, let fromFour) = channel.successor(of: 4, newest: true, codec: "json"),
            case .encoded(6, let fromFive) = channel.successor(of: 5, newest: true, codec: "json")
        else {
            Issue.record("the skipping subscribers' events are not kept")
            return
        }
        #expect(fromFour == [4] && fromFive == [5])
        guard case .state(let state) = channel.successor(of: 3, newest: true, codec: "json") else {
            Issue.record("a subscriber skipping from 3 has no event kept yet: it gets the state to encode")
            return
        }
        #expect(state == Self.state(6))
        for previous in Int64(0)...3 { channel.cacheChangeEvent([UInt8(previous)], revision: 6, previous: previous, codec: "json") }
        let kept = (Int64(0)...5).filter { previous in
            if case .encoded = channel.successor(of: previous, newest: true, codec: "json") { return true }
            return false
        }
        #expect(kept == [0, 1, 4, 5], "at most four encodings a revision, the first kept")
    }

    @Test("cached events beyond their bytes go, oldest first")
    func eventCacheBounded() {
        let channel = Self.channel(1...10, retention: .init(changes: 1024, bytes: 8 << 20, cachedEventBytes: 300))
        for revision in Int64(2)...10 {
            channel.cacheChangeEvent([UInt8](repeating: UInt8(revision), count: 100), revision: revision, previous: revision - 1, codec: "json")
        }
        let cached = (Int64(1)...9).map { delivered -> Bool in
            if case .encoded = channel.successor(of: delivered, newest: false, codec: "json") { return true }
            return false
        }
        #expect(cached == [false, false, false, false, false, false, true, true, true])
    }
}
