import Foundation

/// The text normalizations the store searches and sorts with.
package enum Folding {
    /// Lower-cased, diacritics removed: what `item.searchText` and `item.titleKey` hold.
    package static func folded(_ text: String) -> String {
        if let ascii = asciiLowercased(text) { return ascii }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    /// `text` lower-cased when it is plain ASCII, which has no diacritics to remove: the same
    /// result as Foundation's folding, without calling it. `nil` for any other text.
    private static func asciiLowercased(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                for (index, byte) in bytes.enumerated() { buffer[index] = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
                return bytes.count
            }
        }
    }
}
