import CatalogAPI
import CatalogServices
import CatalogStore
import Foundation
import Testing
import TestSupport

/// A text field with a limit in characters and in bytes, and the rule that checks it.
struct LimitedField: Sendable, CustomTestStringConvertible {
    let field: String
    let limit: TextLimit
    let check: @Sendable (String) throws(CatalogError) -> String

    var testDescription: String { "\(field) (\(limit.characters) characters, \(limit.bytes) bytes)" }

    static let all: [LimitedField] = [
        LimitedField(field: "name", limit: CategoryRules.nameLimit) { text throws(CatalogError) in try CategoryRules.name(text).name },
        LimitedField(field: "title", limit: ItemRules.titleLimit) { text throws(CatalogError) in try ItemRules.title(text) },
        LimitedField(field: "summary", limit: ItemRules.summaryLimit) { text throws(CatalogError) in try ItemRules.summary(text) },
        LimitedField(field: "level", limit: ItemRules.shortTextLimit) { text throws(CatalogError) in
            try ItemRules.shortText(text, field: "level")
        },
        LimitedField(field: "duration", limit: ItemRules.shortTextLimit) { text throws(CatalogError) in
            try ItemRules.shortText(text, field: "duration")
        },
        LimitedField(field: "title", limit: FilterRules.titleLimit) { text throws(CatalogError) in try FilterRules.title(text) },
        LimitedField(field: "options[0].title", limit: FilterRules.titleLimit) { text throws(CatalogError) in
            let request = DefineFilterRequest(filterId: "f", title: "F", options: [FilterOption(id: 1, title: text)])
            guard case .options(let options) = try FilterRules.definition(request).content else { return "" }
            return options[0].title
        },
        LimitedField(field: "query", limit: TextRules.queryLimit) { text throws(CatalogError) in try TextRules.query(text) ?? "" },
    ]
}

/// `characters` characters taking exactly `bytes` bytes of UTF-8: ASCII letters, then one
/// character that is an `e` carrying as many combining marks as the bytes left need.
func text(characters: Int, bytes: Int) -> String {
    let left = bytes - (characters - 1)
    precondition(left >= 1)
    // U+0301 takes 2 bytes, U+20D0 3: one of the latter when the rest is odd.
    let odd = (left - 1) % 2 == 1
    let marks = String(repeating: "\u{301}", count: (left - 1 - (odd ? 3 : 0)) / 2)
    let last = "e" + (odd ? "\u{20D0}" : "") + marks
    let text = String(repeating: "a", count: characters - 1) + last
    precondition(text.count == characters && text.utf8.count == bytes)
    return text
}

@Suite("Every stored text is limited in characters and in bytes of UTF-8")
struct TextLimitTests {
    @Test("a text of exactly the most characters and bytes passes, as sent", arguments: LimitedField.all)
    func atBothLimits(field: LimitedField) throws {
        for sample in [
            text(characters: field.limit.characters, bytes: field.limit.bytes),
            text(characters: 1, bytes: field.limit.bytes),
            String(repeating: "x", count: field.limit.characters),
        ] {
            #expect(try field.check(" \(sample)\n") == sample, "white space around the text does not count")
        }
    }

    @Test("one character over the limit fails naming the field", arguments: LimitedField.all)
    func oneCharacterOver(field: LimitedField) throws {
        let error = try #require(catalogError { try field.check(String(repeating: "x", count: field.limit.characters + 1)) })
        #expect(error.code == .invalidArgument)
        #expect(error.field == field.field)
        #expect(error.rpcError.message.contains("\(field.limit.characters) characters"), "\(error)")
    }

    @Test("one byte over the limit fails naming the field, with fewer characters than the limit", arguments: LimitedField.all)
    func oneByteOver(field: LimitedField) throws {
        let error = try #require(catalogError { try field.check(text(characters: 2, bytes: field.limit.bytes + 1)) })
        #expect(error.code == .invalidArgument)
        #expect(error.field == field.field)
        #expect(error.rpcError.message.contains("\(field.limit.bytes) bytes"), "\(error)")
    }

    @Test("two characters of 1.9 MB (a letter and 950 000 combining marks) fail naming the field", arguments: LimitedField.all)
    func combiningMarks(field: LimitedField) throws {
        let huge = "1e" + String(repeating: "\u{301}", count: 950_000)
        #expect(huge.count == 2)
        let error = try #require(catalogError { try field.check(huge) })
        #expect(error.code == .invalidArgument)
        #expect(error.field == field.field)
        #expect(error.rpcError.message.contains("bytes of UTF-8, not 1900002"), "\(error)")
    }

    @Test("an amount is at most 32 bytes as sent, leading zeros included")
    func amountBytes() throws {
        #expect(try ItemRules.amount(String(repeating: "0", count: 28) + "1.00") == "1.00")
        let error = try #require(catalogError { try ItemRules.amount(String(repeating: "0", count: 29) + "1.00") })
        #expect(error.field == "price.amount")
    }

    @Test("an invalid colour, amount or currency is quoted by its first 32 scalars only")
    func quotedValuesAreShort() throws {
        let huge = String(repeating: "Z", count: 100_000)
        for error in [
            catalogError { try CategoryRules.color(huge) }, catalogError { try ItemRules.currency(huge) },
            catalogError { try ItemRules.amount("x" + huge.prefix(30)) },
        ] {
            let message = try #require(error).rpcError.message
            #expect(message.count < 150, "\(message)")
        }
    }

    @Test("a filter's options take at most 65 536 bytes of titles and icons together")
    func optionsTotal() throws {
        // 536 titles of 66 bytes and 464 of 65: 65 536 bytes in all, in 1000 options.
        var options = (0..<1000).map { index in
            FilterOption(id: Int64(index), title: String(repeating: "t", count: index < 536 ? 66 : 65))
        }
        #expect(options.reduce(0) { $0 + $1.title.utf8.count } == FilterRules.maxOptionsBytes)
        let request = DefineFilterRequest(filterId: "big", title: "Big", options: options)
        guard case .options(let checked) = try FilterRules.definition(request).content else {
            Issue.record("explicit options expected")
            return
        }
        #expect(checked == options)

        options[999].icon = "i"
        let error = try #require(catalogError {
            try FilterRules.definition(DefineFilterRequest(filterId: "big", title: "Big", options: options))
        })
        #expect(error.code == .invalidArgument)
        #expect(error.field == "options")
    }

    @Test("docs/contract.md's table of text limits states the limits the rules check")
    func contractTable() throws {
        let url = try PackageRoot.url().appendingPathComponent("docs/contract.md")
        let contract = try String(contentsOf: url, encoding: .utf8)
        /// As the contract writes numbers: `400`, `2,048`, `65,536`.
        func number(_ value: Int) -> String {
            value < 1000 ? "\(value)" : "\(value / 1000),\(String(format: "%03d", value % 1000))"
        }
        func row(_ field: String, _ message: String, _ characters: String, _ limit: TextLimit) -> String {
            "| \(field) | \(message) | \(characters) | \(number(limit.bytes)) |"
        }
        let rows = [
            row("`name`", "Category (Create, Update, Import)", "1 to \(CategoryRules.nameLimit.characters)", CategoryRules.nameLimit),
            row("`icon`", "Category, filter option", "at most \(CategoryRules.iconLimit.characters)", CategoryRules.iconLimit),
            row("`title`", "Item", "1 to \(ItemRules.titleLimit.characters)", ItemRules.titleLimit),
            row("`summary`", "Item", "at most \(number(ItemRules.summaryLimit.characters))", ItemRules.summaryLimit),
            row("`level`, `duration`", "Item", "at most \(ItemRules.shortTextLimit.characters)", ItemRules.shortTextLimit),
            row("`imageURL`", "Item", "at most \(number(ItemRules.imageURLLimit.characters))", ItemRules.imageURLLimit),
            row("`price.amount`", "Item", "at most \(ItemRules.amountLimit.characters) as sent", ItemRules.amountLimit),
            row("`filterId`", "every Filters request", "1 to \(FilterRules.filterIDLimit.characters)", FilterRules.filterIDLimit),
            row("`title`", "FilterState (Define)", "1 to \(FilterRules.titleLimit.characters)", FilterRules.titleLimit),
            row("`options[i].title`", "FilterState (Define)", "1 to \(FilterRules.titleLimit.characters)", FilterRules.titleLimit),
            row("`query`", "ListItems, Categories List", "at most \(TextRules.queryLimit.characters)", TextRules.queryLimit),
            row("`level`", "ListItems", "at most \(ItemRules.shortTextLimit.characters)", ItemRules.shortTextLimit),
        ]
        for row in rows {
            #expect(contract.contains(row), "docs/contract.md lacks the row \(row)")
        }
        #expect(contract.contains("options` are at most \(number(FilterRules.maxOptions)), and their titles and icons together take at\nmost \(number(FilterRules.maxOptionsBytes)) bytes"))
    }
}
