import Foundation
import GRDB
import GRDBSQLite

/// The columns of the row a statement stands on, read straight from SQLite.
///
/// GRDB's generic row decoding looks up type metadata for every value it decodes and parses
/// dates through a calendar; for a list of 10 000 categories that was most of the call's time.
/// These reads are plain C calls, and dates in GRDB's text form are parsed by hand.
struct ColumnReader {
    let statement: SQLiteStatement

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }

    func bool(_ column: Int32) -> Bool { sqlite3_column_int64(statement, column) != 0 }

    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func optionalInt64(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : int64(column)
    }

    func optionalString(_ column: Int32) -> String? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : string(column)
    }

    /// A date as GRDB stores it (`YYYY-MM-DD HH:MM:SS.SSS`, UTC); any other form is left to GRDB.
    func date(_ column: Int32) -> Date {
        if let text = sqlite3_column_text(statement, column),
            let date = Self.parseDate(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))))
        {
            return date
        }
        return Date.fromDatabaseValue(DatabaseValue(sqliteStatement: statement, index: column)) ?? Date(timeIntervalSince1970: 0)
    }

    /// Parses `YYYY-MM-DD HH:MM:SS.SSS` (UTC), GRDB's storage form for `Date`; nil for any other text.
    static func parseDate(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        guard text.count == 23, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: " "),
            text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: ".")
        else { return nil }
        func number(_ start: Int, _ digits: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<start + digits {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2), let millisecond = number(20, 3),
            year >= 1, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        // Civil date to days since 1970-01-01 (H. Hinnant's algorithm, proleptic Gregorian).
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400  // shiftedYear is 0...9999
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let milliseconds = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

extension Database {
    /// Runs `sql` and makes one value of each row with `make`.
    func fetchAll<Value>(sql: String, arguments: StatementArguments = [], _ make: (ColumnReader) throws -> Value) throws
        -> [Value]
    {
        let statement = try cachedStatement(sql: sql)
        let rows = try RowSteps(statement, arguments: arguments)
        let reader = ColumnReader(statement: statement.sqliteStatement)
        var values: [Value] = []
        while try rows.next() != nil {
            values.append(try make(reader))
        }
        return values
    }
}

/// Steps a statement row by row without making GRDB `Row`s, whose table of column names cost
/// more than a point read's query; each row is read with a `ColumnReader`.
private final class RowSteps: DatabaseCursor {
    typealias Element = Void
    let _statement: Statement
    var _isDone = false

    init(_ statement: Statement, arguments: StatementArguments) throws {
        _statement = statement
        try statement.setArguments(arguments)  // resets the statement, then binds
    }

    deinit {
        // As GRDB's cursors do: a statement left mid-way would keep its read open.
        sqlite3_reset(_statement.sqliteStatement)
    }

    func _element(sqliteStatement: SQLiteStatement) {}
}
