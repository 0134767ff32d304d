import CatalogServices
import Foundation
import TestSupport

extension TestTokens {
    /// The set a token file listing `tokens` gives, read through `TokenFile` as catalogd reads it.
    package static func tokenSet(_ tokens: [Entry] = oneOfEachRole) throws -> TokenSet {
        try TokenFile.parse(Data(fileJSON(tokens).utf8), path: "test-tokens.json")
    }
}
