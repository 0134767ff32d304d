import CatalogAPI
import Foundation
import RPCCore

// Encodes and decodes a `CategoryList` of 10 000 categories and a `FilterEvent` with 12 options
// with JSONCodec and with CBORCodec, in alternating rounds, and prints the median time of each
// operation, the encoded sizes and the ratios CBOR / JSON. The last call of each operation in
// each round is checked, and the program stops at the first failure: a decode must give back the
// original message, an encode the same bytes as before.
//
// Beside them, Foundation's JSONEncoder set up as JSONCodec writes (`.withoutEscapingSlashes`,
// dates as RFC 3339 strings), as the reference for JSONCodec's own encoder, and Foundation's
// JSONDecoder set up as JSONCodec's fallback reads (RFC 3339 dates), as the reference for the
// generated JSON reader. Foundation's encoder takes its dates from a table here, at no
// formatting cost, so its times are a lower bound.
//
// Environment: ROUNDS (default 7).

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
let foundationDecoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
        try Date(try decoder.singleValueContainer().decode(String.self), strategy: .iso8601)
    }
    return decoder
}()
let json = JSONCodec.shared
let cbor = CBORCodec.shared
let rounds = ProcessInfo.processInfo.environment["ROUNDS"].flatMap { Int($0) }.map { max($0, 1) } ?? 7

/// Stops the program, naming what is broken.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("codec-benchmark: \(message)\n".utf8))
    exit(1)
}

/// Seconds taken by `times` runs of `body`, and the last result (which the caller checks).
func time<Result>(_ times: Int, _ body: () throws -> Result) rethrows -> (seconds: Double, last: Result) {
    let start = ContinuousClock.now
    var last = try body()
    for _ in 1..<times { last = try body() }
    let elapsed = ContinuousClock.now - start
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18, last)
}

func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
}

/// `seconds` as µs, or ms from a millisecond up.
func duration(_ seconds: Double) -> String {
    seconds >= 1e-3 ? String(format: "%.2f ms", seconds * 1e3) : String(format: "%.2f µs", seconds * 1e6)
}

/// Times the six operations on `message`, `times` calls of each a round, the operations'
/// order reversed every other round; prints the medians of the time a call.
func compare<Message: Codable & Equatable>(_ label: String, _ message: Message, times: Int) throws {
    let jsonBytes = try json.encode(message)
    let cborBytes = try cbor.encode(message)
    let foundationBytes = try foundation.encode(message)
    guard foundationBytes.count == jsonBytes.count else {
        fail("\(label): JSONCodec writes \(jsonBytes.count) bytes, Foundation \(foundationBytes.count)")
    }
    // Each operation checks its last result and answers the seconds its calls took.
    let operations: [(name: String, run: () throws -> Double)] = [
        ("JSON encode", {
            let (seconds, bytes) = try time(times) { try json.encode(message) }
            guard bytes == jsonBytes else { fail("\(label): the JSON encoding changed") }
            return seconds
        }),
        ("CBOR encode", {
            let (seconds, bytes) = try time(times) { try cbor.encode(message) }
            guard bytes == cborBytes else { fail("\(label): the CBOR encoding changed") }
            return seconds
        }),
        ("JSON decode", {
            let (seconds, decoded) = try time(times) { try json.decode(Message.self, from: jsonBytes) }
            guard decoded == message else { fail("\(label): JSON does not decode to the original") }
            return seconds
        }),
        ("CBOR decode", {
            let (seconds, decoded) = try time(times) { try cbor.decode(Message.self, from: cborBytes) }
            guard decoded == message else { fail("\(label): CBOR does not decode to the original") }
            return seconds
        }),
        ("Foundation encode", { try time(times) { try foundation.encode(message) }.seconds }),
        ("Foundation decode", {
            let (seconds, decoded) = try time(times) { try foundationDecoder.decode(Message.self, from: Data(jsonBytes)) }
            guard decoded == message else { fail("\(label): Foundation does not decode to the original") }
            return seconds
        }),
    ]
    var seconds: [String: [Double]] = [:]
    for round in 0..<rounds {
        for operation in round.isMultiple(of: 2) ? operations : operations.reversed() {
            seconds[operation.name, default: []].append(try operation.run() / Double(times))
        }
    }
    let call = seconds.mapValues(median)
    func row(_ name: String, _ a: String, _ b: String, _ ratio: Double) {
        print("  " + name.padding(toLength: 8, withPad: " ", startingAt: 0) + a.leftPadded(14) + b.leftPadded(14)
              + String(format: "%11.2f", ratio))
    }
    print("\(label): a call, median of \(rounds) round\(rounds == 1 ? "" : "s") of \(times) calls")
    print("  " + "".padding(toLength: 8, withPad: " ", startingAt: 0) + "JSON".leftPadded(14) + "CBOR".leftPadded(14) + "CBOR/JSON".leftPadded(11))
    row("size", "\(jsonBytes.count) B", "\(cborBytes.count) B", Double(cborBytes.count) / Double(jsonBytes.count))
    row("encode", duration(call["JSON encode"]!), duration(call["CBOR encode"]!), call["CBOR encode"]! / call["JSON encode"]!)
    row("decode", duration(call["JSON decode"]!), duration(call["CBOR decode"]!), call["CBOR decode"]! / call["JSON decode"]!)
    print("  Foundation's JSONEncoder encodes in \(duration(call["Foundation encode"]!)), "
          + String(format: "%.1f× JSONCodec's time", call["Foundation encode"]! / call["JSON encode"]!))
    print("  Foundation's JSONDecoder decodes in \(duration(call["Foundation decode"]!)), "
          + String(format: "%.1f× JSONCodec's time", call["Foundation decode"]! / call["JSON decode"]!))
}

extension String {
    /// The string right-aligned in `width` characters.
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

try compare("CategoryList of 10 000 categories", categoryList, times: 10)
try compare("FilterEvent with 12 options", filterEvent, times: 20_000)
