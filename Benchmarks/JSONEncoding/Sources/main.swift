import CatalogAPI
import Foundation
import RPCCore

// Encodes a `CategoryList` of 10 000 categories and a `FilterEvent` with JSONCodec and with
// Foundation's JSONEncoder set up as the codec used to set it up (`.withoutEscapingSlashes`,
// dates as RFC 3339 strings), in alternating rounds, and prints the median time of each.
// Foundation's dates come from a table here, at no formatting cost, so its times are a lower
// bound and the speed-up an underestimate.

let created = Date(timeIntervalSince1970: 1_769_162_400)
let updated = Date(timeIntervalSince1970: 1_769_241_600)
let names = ["Famille", "Voitures", "Jeux", "Sports", "IA Générative", "Cuisine & Vins", "Photo/Vidéo", "Musique"]
let categoryList = CategoryList(
    categories: (0..<10_000).map { index in
        let name = "\(names[index % names.count]) \(index)"
        return Category(
            id: Int64(index + 1), name: name, slug: name.lowercased().replacingOccurrences(of: " ", with: "_"),
            color: "#9C27B0", icon: index.isMultiple(of: 3) ? nil : "sparkles", position: index,
            isDefault: index < 4, itemCount: index * 7 % 1000, revision: Int64(index % 50 + 1),
            createdAt: created, updatedAt: updated
        )
    }
)
let filterEvent = FilterEvent(
    kind: .change, revision: 43, previousRevision: 41,
    state: FilterState(
        filterId: "formations", title: "Catégories",
        options: (1...12).map { FilterOption(id: Int64($0), title: names[$0 % names.count], icon: $0.isMultiple(of: 2) ? "house" : nil) },
        selectedId: 3, presentation: .expanded, revision: 43, updatedAt: updated, source: .categories
    )
)

let foundation: JSONEncoder = {
    let stamps = [created: "2026-01-23T10:00:00Z", updated: "2026-01-24T08:00:00Z"]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(stamps[date]!)
    }
    return encoder
}()
let codec = JSONCodec.shared

/// Seconds taken by `body`, run `times` times; `sink` keeps the results alive.
nonisolated(unsafe) var sink = 0
func time(_ times: Int, _ body: () throws -> Int) rethrows -> Double {
    let start = ContinuousClock.now
    for _ in 0..<times { sink &+= try body() }
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
}

func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
}

func compare<Message: Encodable>(_ label: String, _ message: Message, times: Int, rounds: Int) throws {
    let ours = try codec.encode(message)
    let theirs = try foundation.encode(message)
    precondition(ours.count == theirs.count, "\(label): \(ours.count) bytes against Foundation's \(theirs.count)")
    var oursSeconds: [Double] = []
    var theirsSeconds: [Double] = []
    for _ in 0..<rounds {
        oursSeconds.append(try time(times) { try codec.encode(message).count })
        theirsSeconds.append(try time(times) { try foundation.encode(message).count })
    }
    let (a, b) = (median(oursSeconds), median(theirsSeconds))
    print(
        "\(label) (\(ours.count) bytes) ×\(times): JSONCodec \(String(format: "%.1f", a * 1000)) ms, "
            + "Foundation \(String(format: "%.1f", b * 1000)) ms, \(String(format: "%.1f", b / a))× faster "
            + "(median of \(rounds) rounds)"
    )
}

try compare("CategoryList of 10 000", categoryList, times: 10, rounds: 7)
try compare("FilterEvent", filterEvent, times: 100_000, rounds: 7)
