import CatalogAPI
import CatalogServices
import CatalogStore
import Testing

@Suite("Item rules")
struct ItemRulesTests {
    @Test("a title is trimmed")
    func titleIsTrimmed() throws {
        #expect(try ItemRules.title("  Prompt Engineering \n") == "Prompt Engineering")
    }

    @Test("a title of 200 characters passes, 201 fail")
    func titleLength() throws {
        let longest = String(repeating: "é", count: 200)
        #expect(try ItemRules.title(longest) == longest)
        let error = try #require(catalogError { try ItemRules.title(longest + "é") })
        #expect(error.field == "title")
    }

    @Test("an empty, blank or control-character title fails", arguments: ["", "   ", "\n", "a\u{7}b", "a\nb"])
    func badTitle(raw: String) throws {
        let error = try #require(catalogError { try ItemRules.title(raw) })
        #expect(error.field == "title")
        #expect(error.code == .invalidArgument)
    }

    @Test("a summary may span lines and holds no other control character")
    func summary() throws {
        #expect(try ItemRules.summary(" line one\n\tline two ") == "line one\n\tline two")
        #expect(try ItemRules.summary("   ") == "")
        #expect(catalogError { try ItemRules.summary("a\u{0}") }?.field == "summary")
        #expect(catalogError { try ItemRules.summary(String(repeating: "a", count: 5_001)) }?.field == "summary")
    }

    @Test("a short text is one trimmed line of at most 100 characters")
    func shortText() throws {
        #expect(try ItemRules.shortText(" 2 jours ", field: "duration") == "2 jours")
        #expect(catalogError { try ItemRules.shortText("2\njours", field: "duration") }?.field == "duration")
        #expect(catalogError { try ItemRules.shortText(String(repeating: "a", count: 101), field: "level") }?.field == "level")
    }

    @Test(
        "an amount is a non-negative decimal, stored with exactly two decimals",
        arguments: [
            ("990", "990.00"), ("990.5", "990.50"), ("990.00", "990.00"), ("0.99", "0.99"), ("0", "0.00"),
            ("007", "7.00"), ("000.10", "0.10"), ("999999999999.99", "999999999999.99"),
        ])
    func goodAmount(raw: String, stored: String) throws {
        #expect(try ItemRules.amount(raw) == stored)
    }

    @Test(
        "an amount that is not such a decimal fails",
        arguments: [
            "", "-1", "+1", "1.", ".5", "1.234", "1e3", "1,00", " 1", "1 ", "1.0.0", "abc", "١٢", "NaN",
            "1000000000000",
        ])
    func badAmount(raw: String) throws {
        let error = try #require(catalogError { try ItemRules.amount(raw) })
        #expect(error.field == "price.amount")
    }

    @Test("a currency is 3 upper-case letters")
    func currency() throws {
        #expect(try ItemRules.currency("EUR") == "EUR")
        for raw in ["eur", "Eur", "EU", "EURO", "E1R", "", "ÉUR"] {
            #expect(catalogError { try ItemRules.currency(raw) }?.field == "price.currency", "\(raw)")
        }
    }

    @Test("a price is checked field by field")
    func price() throws {
        #expect(try ItemRules.price(Money(amount: "990", currency: "EUR")) == Money(amount: "990.00", currency: "EUR"))
        #expect(catalogError { try ItemRules.price(Money(amount: "-1", currency: "EUR")) }?.field == "price.amount")
        #expect(catalogError { try ItemRules.price(Money(amount: "1", currency: "eur")) }?.field == "price.currency")
    }

    @Test(
        "an image URL is an absolute http or https URL",
        arguments: ["https://example.com/17.png", "http://example.com", "HTTPS://EXAMPLE.COM/a.png", "https://example.com:8443/a?b=c#d"])
    func goodImageURL(raw: String) throws {
        #expect(try ItemRules.imageURL(raw) == raw)
    }

    @Test(
        "an image URL that is not an absolute http(s) URL fails",
        arguments: [
            "", "ftp://example.com/x.png", "example.com/x.png", "/relative.png", "https://", "https:///path",
            "javascript:alert(1)", "https://exa mple.com/", " https://example.com/", "https://example.com/\n",
            "https://example.com/" + String(repeating: "a", count: 2_048),
        ])
    func badImageURL(raw: String) throws {
        let error = try #require(catalogError { try ItemRules.imageURL(raw) })
        #expect(error.field == "imageURL")
    }

    @Test("a page size is 50 when absent")
    func defaultPageSize() throws {
        #expect(try ItemRules.pageSize(nil) == 50)
    }

    @Test("a page size of 1 to 500 passes", arguments: [1, 50, 500])
    func goodPageSize(raw: Int) throws {
        #expect(try ItemRules.pageSize(raw) == raw)
    }

    @Test("a page size outside 1 to 500 fails", arguments: [0, -1, 501, Int.max, Int.min])
    func badPageSize(raw: Int) throws {
        let error = try #require(catalogError { try ItemRules.pageSize(raw) })
        #expect(error.field == "pageSize")
        #expect(error.code == .invalidArgument)
    }
}
