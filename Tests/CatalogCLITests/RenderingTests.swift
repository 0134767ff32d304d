import CatalogCLI
import CatalogKit
import Foundation
import Testing

@Suite("CatalogCLI building blocks, without a server")
struct RenderingTests {
    @Test("a JSON document keeps key order and number text through parse and print")
    func documentRoundTrip() throws {
        let text = #"{"zeta":1.50,"alpha":[true,null,"é\n\"q\""],"empty":{},"none":[],"big":12345678901234567890}"#
        let document = try JSONDocument(parsing: Array(text.utf8))
        #expect(document.compactJSON == text)
        #expect(document.prettyJSON.hasPrefix("{\n  \"zeta\": 1.50,\n  \"alpha\": [\n    true,"))
        #expect(try JSONDocument(parsing: Array(document.prettyJSON.utf8)) == document)
    }

    @Test("malformed JSON is refused with the offset of the problem", arguments: [#"{"a":}"#, "[1,]", #"{"a" 1}"#, "tru", #""\ud800""#, "1 2"])
    func malformed(text: String) {
        #expect(throws: JSONDocument.ParseError.self) { try JSONDocument(parsing: Array(text.utf8)) }
    }

    @Test("the document encoder keeps the message type's field order and writes RFC 3339 dates")
    func encoderOrder() throws {
        let date = Date(timeIntervalSince1970: 1_769_162_400)
        let item = Item(id: 17, title: "Prompt", price: Money(amount: "990.00", currency: "EUR"), createdAt: date, updatedAt: date)
        let document = try DocumentEncoder().encode(item)
        #expect(
            document.compactJSON
                == #"{"id":17,"title":"Prompt","price":{"amount":"990.00","currency":"EUR"},"createdAt":"2026-01-23T10:00:00Z","updatedAt":"2026-01-23T10:00:00Z","revision":1}"#
        )
    }

    @Test("tables shrink their flexible columns to the width, counting wide characters as two columns")
    func tableFitting() {
        var table = Table(columns: [.init("ID", alignment: .right), .init("NAME", flexible: true), .init("ICON")])
        table.append([Table.Cell("7"), Table.Cell("生成AIのためのとても長いカテゴリー名"), Table.Cell("sparkles")])
        table.append([Table.Cell("12"), Table.Cell("Données"), Table.Cell("-")])
        let lines = table.render(width: 30, headers: true, style: TextStyle(enabled: false)).split(separator: "\n").map(String.init)
        // Terminal columns taken, with the CJK characters of this test as two.
        func columns(_ text: Substring) -> Int { text.reduce(0) { $0 + ($1.unicodeScalars.first!.value >= 0x3000 ? 2 : 1) } }
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { columns($0[...]) <= 30 }, "\(lines)")
        #expect(lines[1].contains("生成AI") && lines[1].contains("…"), "\(lines)")
        let iconColumns = [("ICON", lines[0]), ("sparkles", lines[1]), ("-", lines[2])].map { word, line in
            columns(line[..<line.range(of: word, options: .backwards)!.lowerBound])
        }
        #expect(Set(iconColumns).count == 1, "the ICON column is aligned: \(lines)")
        #expect(lines[2].hasPrefix("12   Données"))
    }

    @Test(
        "server addresses",
        arguments: [
            ("127.0.0.1:50051", "127.0.0.1", 50051), ("localhost", "localhost", 50051), ("[::1]:9000", "::1", 9000),
            ("catalog.example:443", "catalog.example", 443),
        ])
    func serverAddress(text: String, host: String, port: Int) throws {
        let address = try #require(ServerAddress(parsing: text))
        #expect(address.host == host && address.port == port)
    }

    @Test(
        "https:// server addresses ask for TLS, on port 443 unless given",
        arguments: [
            ("https://catalog.example", "catalog.example", 443), ("HTTPS://catalog.example:8443/", "catalog.example", 8443),
            ("https://[::1]:9000", "::1", 9000),
        ])
    func httpsServerAddress(text: String, host: String, port: Int) throws {
        let address = try #require(ServerAddress(parsing: text))
        #expect(address.host == host && address.port == port && address.usesTLS)
        #expect(ServerAddress(parsing: "\(host.contains(":") ? "[\(host)]" : host):\(port)")?.usesTLS == false)
    }

    @Test("bad server addresses are refused", arguments: ["", ":50051", "host:", "host:0", "host:99999", "::1", "a b:1", "http://x:1", "https://", "https://x:1/y"])
    func badServerAddress(text: String) {
        #expect(ServerAddress(parsing: text) == nil)
    }

    @Test("a large replace import: merge batches, then one replace that deletes what the file does not name")
    func importSteps() {
        let records = (0..<25).map { CategoryRecord(name: "C\($0)", color: "#000000", position: $0, isDefault: false) }
        let steps = BatchedImport(records: records, mode: .replace, batchSize: 10).steps
        #expect(steps.map(\.records.count) == [10, 10, 5, 25])
        #expect(steps.map(\.mode) == [.merge, .merge, .merge, .replace])
        #expect(steps.map(\.isClosingReplace) == [false, false, false, true])
        #expect(BatchedImport(records: records, mode: .replace, batchSize: 0).steps.map(\.mode) == [.replace])
        #expect(BatchedImport(records: records, mode: .merge, batchSize: 30).steps.count == 1)
    }

    @Test("values a newer server sends are shown as sent, control characters escaped")
    func unknownWireValues() throws {
        let state = FilterState(
            filterId: "f", title: "F", options: [], presentation: .unknown("side\u{1B}[2Jways"), revision: 4,
            updatedAt: Date(timeIntervalSince1970: 1_769_162_400), source: .unknown("tags"))
        let heading = try #require(FilterStateView(state: state).lines(style: TextStyle(enabled: false), width: 200).first)
        #expect(heading == #"f · F · side\u{1B}[2Jways · revision 4 · selected: all"#)
        let event = FilterEvent(kind: .unknown("digest"), revision: 5)
        #expect(try DocumentEncoder().encode(event).compactJSON == #"{"kind":"digest","revision":5}"#)
        #expect(try DocumentEncoder().encode(state).compactJSON.contains(#""source":"tags""#))
    }

    @Test("--until conditions")
    func watchConditions() throws {
        let date = Date()
        let state = FilterState(
            filterId: "f", title: "F", options: [FilterOption(id: 3, title: "Data")], selectedId: 3, presentation: .collapsed,
            revision: 4, updatedAt: date)
        for met in ["selected=3", "selected=data", "presentation=collapsed"] {
            #expect(try WatchCondition(parsing: met).isMet(by: state), "\(met)")
        }
        for unmet in ["selected=4", "selected=all", "presentation=expanded", "selected=Design"] {
            #expect(try !WatchCondition(parsing: unmet).isMet(by: state), "\(unmet)")
        }
        for invalid in ["selected", "colour=red", "presentation=sideways", "selected="] {
            #expect(throws: CLIFailure.self) { try WatchCondition(parsing: invalid) }
        }
    }
}
