import CatalogServices
import CatalogStore
import Testing

@Suite("Category rules")
struct CategoryRulesTests {
    @Test("a name is trimmed of white space and keeps its inner spacing")
    func nameIsTrimmed() throws {
        let name = try CategoryRules.name("  IA   Générative  ")
        #expect(name.name == "IA   Générative")
        #expect(name.slug == "ia_générative")
    }

    @Test(
        "a name is trimmed of any Unicode white space at its ends",
        arguments: ["\n\tFamily \r\n", "\u{00A0}Family\u{3000}", "\u{2028}Family\u{2029}", "\u{0085}Family\u{000B}"])
    func nameIsTrimmedOfUnicodeWhiteSpace(raw: String) throws {
        #expect(try CategoryRules.name(raw).name == "Family")
    }

    @Test("the slug of a decomposed (NFD) name equals that of the composed (NFC) one")
    func slugIsNFC() throws {
        let decomposed = try CategoryRules.name("IA Ge\u{301}ne\u{301}rative")
        let composed = try CategoryRules.name("IA G\u{E9}n\u{E9}rative")
        // Swift's == compares canonically; the scalars show the slug really is NFC.
        #expect(Array(decomposed.slug.unicodeScalars) == Array(composed.slug.unicodeScalars))
        #expect(Array(decomposed.slug.unicodeScalars) == Array("ia_g\u{E9}n\u{E9}rative".unicodeScalars))
    }

    @Test("the display name keeps the characters it was sent with")
    func nameIsNotNormalized() throws {
        let name = try CategoryRules.name("Ge\u{301}ne\u{301}rative")
        #expect(Array(name.name.unicodeScalars) == Array("Ge\u{301}ne\u{301}rative".unicodeScalars))
    }

    @Test(
        "a slug is lower-cased with each run of white space as one underscore",
        arguments: [
            ("ÉCOLE", "école"),
            ("Jeux  Vidéo", "jeux_vidéo"),
            ("a\u{00A0}\u{3000} b", "a_b"),
            ("snake_case name", "snake_case_name"),
            ("Straße", "straße"),
            ("Ⅻ Roman", "ⅻ_roman"),
        ])
    func slugFolding(raw: String, slug: String) throws {
        #expect(try CategoryRules.name(raw).slug == slug)
    }

    @Test("a name of 50 two-scalar flags (400 bytes) passes; 51 fail on their bytes, 23 family emoji (414 bytes) too")
    func emojiNames() throws {
        let flags = String(repeating: "🇫🇷", count: 50)
        #expect(try CategoryRules.name(flags).name == flags)
        let error = try #require(catalogError { try CategoryRules.name(flags + "🇫🇷") })
        #expect(error.code == .invalidArgument)
        #expect(error.reason == "invalidField")
        #expect(error.field == "name")
        #expect(error.rpcError.message.contains("400 bytes"))

        let family = "👨‍👩‍👧"  // five scalars joined by ZERO WIDTH JOINER (a format character), 18 bytes
        #expect(try CategoryRules.name(String(repeating: family, count: 22)).name.count == 22)
        #expect(catalogError { try CategoryRules.name(String(repeating: family, count: 23)) }?.field == "name")
    }

    @Test("a name of 1 character passes")
    func shortestName() throws {
        #expect(try CategoryRules.name(" x ").name == "x")
    }

    @Test("an empty or blank name fails", arguments: ["", " ", "\n\t ", "\u{3000}"])
    func blankName(raw: String) throws {
        let error = try #require(catalogError { try CategoryRules.name(raw) })
        #expect(error.field == "name")
        #expect(error.code == .invalidArgument)
    }

    @Test(
        "a name with a control character fails",
        arguments: ["a\u{0}b", "bell\u{7}", "a\u{7F}b", "a\nb", "a\tb", "a\u{85}b", "a\u{9B}b"])
    func controlCharacter(raw: String) throws {
        let error = try #require(catalogError { try CategoryRules.name(raw) })
        #expect(error.field == "name")
    }

    @Test("a failure names the field it was given")
    func customField() throws {
        let error = try #require(catalogError { try CategoryRules.name("", field: "categories[3].name") })
        #expect(error.field == "categories[3].name")
    }

    @Test(
        "a colour is #RRGGBB in any case and comes back upper-case",
        arguments: [("#9c27b0", "#9C27B0"), ("#9C27B0", "#9C27B0"), ("#aBcDeF", "#ABCDEF"), ("#000000", "#000000")])
    func goodColor(raw: String, stored: String) throws {
        #expect(try CategoryRules.color(raw) == stored)
    }

    @Test(
        "a colour that is not #RRGGBB fails",
        arguments: ["9C27B0", "#12345G", "#12345", "#1234567", "#FFF", "", " #123456", "#123456 ", "##12345", "#１２３４５６"])
    func badColor(raw: String) throws {
        let error = try #require(catalogError { try CategoryRules.color(raw) })
        #expect(error.field == "color")
        #expect(error.code == .invalidArgument)
    }

    @Test(
        "an icon of a-z, 0-9 and '.' up to 64 characters passes",
        arguments: ["sparkles", "house.fill", "0.9", "a", String(repeating: "z", count: 64)])
    func goodIcon(raw: String) throws {
        #expect(try CategoryRules.icon(raw) == raw)
    }

    @Test("an empty icon means no icon")
    func emptyIcon() throws {
        #expect(try CategoryRules.icon("") == nil)
    }

    @Test(
        "an icon with other characters or longer than 64 fails",
        arguments: ["Sparkles", "house-fill", "house fill", "é", "house_fill", " sparkles", String(repeating: "z", count: 65)])
    func badIcon(raw: String) throws {
        let error = try #require(catalogError { try CategoryRules.icon(raw, field: "categories[0].icon") })
        #expect(error.field == "categories[0].icon")
    }

    @Test("a position is 0 or more")
    func position() throws {
        #expect(try CategoryRules.position(0, field: "toPosition") == 0)
        #expect(try CategoryRules.position(7, field: "toPosition") == 7)
        let error = try #require(catalogError { try CategoryRules.position(-1, field: "toPosition") })
        #expect(error.field == "toPosition")
    }
}
