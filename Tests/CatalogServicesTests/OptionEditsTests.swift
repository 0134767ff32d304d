import CatalogAPI
import CatalogStore
import Foundation
import Testing
import TestSupport

/// The edits between two option lists: they turn the old list into the new one, undo back to
/// the old one, read back from their stored form, and stay few for the usual changes.
@Suite("Option edits")
struct OptionEditsTests {
    static func option(_ id: Int64, _ title: String = "") -> FilterOption {
        FilterOption(id: id, title: title.isEmpty ? "Option \(id)" : title, icon: id.isMultiple(of: 3) ? "star" : nil)
    }

    /// A random list of distinct ids from 1...30, some retitled.
    static func randomList(_ random: inout SplitMix64) -> [FilterOption] {
        let ids = (1...30).map(Int64.init).shuffled(using: &random).prefix(random.int(in: 0...20))
        return ids.map { option($0, random.int(in: 0...4) == 0 ? "Renamed \($0)" : "") }
    }

    @Test("applied, the edits between two random lists give the new one; undone, the old one; stored, the same edits")
    func randomLists() throws {
        var random = SplitMix64(seed: 28)
        for _ in 0..<2000 {
            let old = Self.randomList(&random)
            let new = Self.randomList(&random)
            let edits = OptionEdits.between(old, new)
            var forward = old
            OptionEdits.apply(edits, to: &forward)
            #expect(forward == new)
            var backward = new
            OptionEdits.undo(edits, on: &backward)
            #expect(backward == old)
            let stored = try StoredFilter.encodeEdits(edits)
            #expect(try StoredFilter.decodeEdits(stored) == edits)
            #expect((stored == nil) == (old == new))
        }
    }

    @Test("a move is two edits, an insert, a removal or a rename one, at any size")
    func fewEdits() {
        let list = (1...10_000).map { Self.option(Int64($0)) }
        var moved = list
        moved.insert(moved.remove(at: 17), at: 9_000)
        #expect(OptionEdits.between(list, moved).count == 2)
        var first = list
        first.insert(first.removeLast(), at: 0)
        #expect(OptionEdits.between(list, first).count == 2)
        #expect(OptionEdits.between(list, list + [Self.option(10_001)]) == [.insert(Self.option(10_001), at: 10_000)])
        #expect(OptionEdits.between(list, Array(list.dropFirst())) == [.remove(list[0], at: 0)])
        var renamed = list
        renamed[5_000] = Self.option(5_001, "New name")
        #expect(OptionEdits.between(list, renamed) == [.update(from: list[5_000], to: renamed[5_000], at: 5_000)])
    }

    @Test("a step that creates the filter applies to no options, whatever the state before")
    func creatingStep() {
        let gone = FilterState(filterId: "f", title: "Old", options: [Self.option(1), Self.option(2)], revision: 4, updatedAt: Date())
        let created = FilterState(filterId: "f", title: "New", options: [Self.option(2), Self.option(7)], revision: 5, updatedAt: Date())
        let step = FilterStep(from: nil, to: created)
        #expect(step.creates)
        #expect(step.applied(to: gone) == created)
        #expect(FilterStep.states(current: created, steps: [step]) == [created])
    }

    @Test("edited options make the next revision; a selection whose option went is cleared, one moved is kept")
    func selectionAcrossEdits() {
        let state = FilterState(
            filterId: "f", title: "F", options: [Self.option(1), Self.option(2), Self.option(3)], selectedId: 2, revision: 1,
            updatedAt: Date(timeIntervalSince1970: 0))
        func edited(_ edits: [OptionEdit]) -> FilterState {
            var next = state
            FilterRules.editOptions(of: &next, edits, now: Date(timeIntervalSince1970: 5))
            return next
        }
        let removed = edited([.remove(Self.option(2), at: 1)])
        #expect(removed.selectedId == nil && removed.revision == 2 && removed.updatedAt == Date(timeIntervalSince1970: 5))
        let moved = edited([.remove(Self.option(2), at: 1), .insert(Self.option(2), at: 2)])
        #expect(moved.selectedId == 2 && moved.options.map(\.id) == [1, 3, 2])
        #expect(edited([.remove(Self.option(3), at: 2)]).selectedId == 2)
    }
}
