/// Why bytes are not an acceptable CBOR data item.
package struct CBORError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        /// The input ends inside an item (or a declared length runs past it).
        case truncated
        /// Not well-formed (RFC 8949 §5.3.1): reserved additional information, a misplaced
        /// break, a chunk of the wrong type, bytes after the item.
        case illFormed
        /// Well-formed but not valid (§5.3.2): text that is not UTF-8, a duplicate map key,
        /// a tag on content it cannot have.
        case invalid
        /// Nested deeper than the decoder allows.
        case tooDeep
    }

    package let kind: Kind
    /// What was wrong, for people.
    package let message: String
    /// Where in the input, counted in bytes from 0.
    package let offset: Int

    package var description: String { "\(message) (at byte \(offset))" }
}
