import CatalogKit
import Foundation
import RPCCore

/// The items of a file for `item import`: JSON lines (one CreateItem request per line, blank
/// lines skipped) or CSV with a header row naming the request's fields (`title`, `summary`,
/// `level`, `duration`, `price` as `990.00 EUR`, `imageURL`, `categoryId`; an empty cell is an
/// absent field). A file whose name ends in `.csv`, or whose first character is not `{`, is CSV.
package struct ItemImportFile: Sendable {
    /// The requests, in file order.
    package let requests: [CreateItemRequest]
    /// The line each request starts on, for naming the one the server refuses.
    package let lines: [Int]
    /// The file's name in messages (`standard input` for `-`).
    package let name: String

    /// The columns a CSV file may have.
    package static let csvColumns = ["title", "summary", "level", "duration", "price", "imageURL", "categoryId"]

    /// Reads the file at `path` (`-`: standard input).
    ///
    /// - Throws: ``CLIFailure`` (usage) when the file cannot be read or a line is not an item,
    ///   naming the line.
    package static func read(_ path: String) throws(CLIFailure) -> ItemImportFile {
        let file = try InputFile(path)
        let name = file.name
        let bytes = [UInt8](file.data)
        let first = bytes.first { !Self.isBlank($0) }
        if path.lowercased().hasSuffix(".csv") || (first != nil && first != UInt8(ascii: "{")) {
            return try csv(String(decoding: bytes, as: UTF8.self), name: name)
        }
        return try jsonLines(bytes, name: name)
    }

    /// One CreateItem request per line, read from the bytes as they are (a file of 100 000
    /// lines is not made into a `String` first).
    static func jsonLines(_ bytes: [UInt8], name: String) throws(CLIFailure) -> ItemImportFile {
        var requests: [CreateItemRequest] = []
        var lines: [Int] = []
        let codec = JSONCodec()
        var number = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard line.contains(where: { !Self.isBlank($0) }) else { continue }
            do throws(RPCError) {
                requests.append(try codec.decode(CreateItemRequest.self, from: Array(line)))
            } catch {
                throw .usage("\(name):\(number): not an item: \(error.message)")
            }
            lines.append(number)
        }
        return ItemImportFile(requests: requests, lines: lines, name: name)
    }

    /// Space, tab, carriage return or line feed.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    /// CSV with a header row.
    static func csv(_ text: String, name: String) throws(CLIFailure) -> ItemImportFile {
        let table: CSVTable
        do {
            table = try CSVTable(text)
        } catch {
            throw .usage("\(name): \(error.message)")
        }
        if let unknown = table.columns.first(where: { !csvColumns.contains($0) }) {
            throw .usage("\(name):1: unknown column '\(unknown)' (columns: \(csvColumns.joined(separator: ", ")))")
        }
        guard let titleColumn = table.columns.firstIndex(of: "title") else {
            throw .usage("\(name):1: no 'title' column")
        }
        var requests: [CreateItemRequest] = []
        var lines: [Int] = []
        for (line, fields) in table.records {
            guard fields.count == table.columns.count else {
                throw .usage("\(name):\(line): \(fields.count) fields where the header has \(table.columns.count)")
            }
            func value(_ column: String) -> String? {
                guard let index = table.columns.firstIndex(of: column), !fields[index].isEmpty else { return nil }
                return fields[index]
            }
            var request = CreateItemRequest(title: fields[titleColumn])
            request.summary = value("summary")
            request.level = value("level")
            request.duration = value("duration")
            request.imageURL = value("imageURL")
            if let price = value("price") {
                do {
                    request.price = try PriceArgument.parse(price)
                } catch {
                    throw .usage("\(name):\(line): \(error.message)")
                }
            }
            if let category = value("categoryId") {
                guard let id = Int64(category.trimmingCharacters(in: .whitespaces)) else {
                    throw .usage("\(name):\(line): categoryId '\(category)' is not an id")
                }
                request.categoryId = id
            }
            requests.append(request)
            lines.append(line)
        }
        return ItemImportFile(requests: requests, lines: lines, name: name)
    }
}
