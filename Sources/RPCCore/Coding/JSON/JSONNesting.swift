/// How deeply JSON text nests, measured before it reaches Foundation's `JSONDecoder`.
///
/// Foundation refuses text nested deeper than 512 arrays or objects, but a refusal whose
/// place is the text's last byte traps while it computes that place (513 `[` and nothing
/// else crash the process). So text from a peer that nests that deeply never reaches it.
package enum JSONNesting {
    /// The deepest nesting Foundation's `JSONDecoder` is given.
    package static let foundationLimit = 512

    /// Whether `bytes` open more than `limit` arrays or objects at once (brackets inside
    /// strings do not count).
    package static func exceeds(_ limit: Int, in bytes: some Sequence<UInt8>) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
        return false
    }
}
