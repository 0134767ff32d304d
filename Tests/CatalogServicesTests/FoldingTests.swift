import CatalogStore
import Foundation
import Testing

@Suite("Folding")
struct FoldingTests {
    /// What `Folding.folded` gives every text: Foundation's folding, lower-cased.
    static func foundation(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    @Test("plain ASCII folds as Foundation folds it, every character and mixtures of them")
    func asciiAsFoundation() {
        let characters = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        for character in characters { #expect(Folding.folded(character) == Self.foundation(character), "\(character.unicodeScalars.first!.value)") }
        var mixed = ""
        for (index, character) in characters.enumerated() {
            mixed += character + characters[(index * 37) % 128]
            #expect(Folding.folded(mixed) == Self.foundation(mixed))
        }
    }

    @Test("other text still folds through Foundation: diacritics and cases gone")
    func unicode() {
        for text in ["Éléphant Ça", "IA Générative", "Straße", "ΣΊΣΥΦΟΣ", "Photos 📷 東京"] {
            #expect(Folding.folded(text) == Self.foundation(text))
        }
        #expect(Folding.folded("Éléphant") == "elephant")
    }
}
