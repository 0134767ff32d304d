import Foundation
import GRDB
import Testing

@testable import CatalogStoreSQLite

@Suite("Reading columns straight from SQLite")
struct ColumnReaderTests {
    @Test("dates in GRDB's storage form parse to the instant GRDB's own decoding gives")
    func datesMatchGRDB() throws {
        var generator = SystemRandomNumberGenerator()
        let edges: [Double] = [0, 951_782_400, 951_868_800, 4_107_542_399.999, 1_798_761_599.5]  // 1970, 2000-02-29, 2000-03-01, 2100, 2026-12-31
        let instants = edges + (0..<2000).map { _ in Double(Int64.random(in: 0...4_102_444_800_000, using: &generator)) / 1000 }
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            guard case .string(let text) = date.databaseValue.storage else {
                Issue.record("GRDB stored \(date) as something other than text")
                continue
            }
            let expected = try #require(Date.fromDatabaseValue(date.databaseValue))
            let parsed = try #require(Self.parse(text), "\(text) did not parse")
            #expect(
                (parsed.timeIntervalSince1970 * 1000).rounded() == (expected.timeIntervalSince1970 * 1000).rounded(),
                "\(text): \(parsed) against GRDB's \(expected)")
        }
    }

    @Test("text in any other form is left to GRDB", arguments: [
        "2026-11-21", "2026-11-21 10:00:00", "2026-11-21T10:00:00.000", "2026-13-01 10:00:00.000",
        "2026-11-21 24:00:00.000", "2026-11-2x 10:00:00.000", "0000-01-01 00:00:00.000",
    ])
    func otherForms(text: String) {
        #expect(Self.parse(text) == nil)
    }

    @Test("every column kind reads back what was stored, NULL included")
    func readsColumns() throws {
        let database = try DatabaseQueue()
        let rows = try database.write { db in
            try db.execute(sql: "CREATE TABLE t (i INTEGER, s TEXT, o TEXT, d TEXT, n INTEGER)")
            try db.execute(
                sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)",
                arguments: [-7, "Café ☕︎", nil, "2024-02-29 23:59:59.123", nil, 1, "", "x", "2024-02-29T23:59:59Z", 0])
            return try db.fetchAll(sql: "SELECT i, s, o, d, n FROM t ORDER BY rowid") { columns in
                (columns.int64(0), columns.bool(0), columns.string(1), columns.optionalString(2), columns.date(3),
                 columns.optionalInt64(4))
            }
        }
        try #require(rows.count == 2)
        #expect(rows[0].0 == -7 && rows[0].1 && rows[0].2 == "Café ☕︎" && rows[0].3 == nil)
        #expect(rows[0].4 == Date(timeIntervalSince1970: 1_709_251_199.123))
        #expect(rows[1].0 == 1 && rows[1].2 == "" && rows[1].3 == "x")
        #expect(rows[0].5 == nil && rows[1].5 == 0, "optionalInt64 is nil for NULL only")
        #expect(rows[1].4 == Date(timeIntervalSince1970: 1_709_251_199), "an ISO 8601 form goes through GRDB")
    }

    private static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { ColumnReader.parseDate($0) }
    }
}
