/// A W3C Trace Context `traceparent` value (w3.org/TR/trace-context):
/// `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`.
public struct TraceParent: Sendable, Hashable, CustomStringConvertible {
    /// The trace's id: 32 lower-case hex digits, not all zero.
    public let traceID: String
    /// The id of the caller's span: 16 lower-case hex digits, not all zero.
    public let parentID: String
    /// The trace flags; bit 0 says the caller records the trace (sampled).
    public let flags: UInt8

    /// The header's name.
    public static let headerName = "traceparent"

    /// The fields of a well-formed `value`, or `nil`: a wrong length, upper-case or non-hex
    /// digits, an all-zero id, or version `ff`. A version after `00` may carry more fields,
    /// which are ignored, as the specification asks.
    public init?(_ value: String) {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, let version = parts.first, version.count == 2, Self.isHex(version), version != "ff",
            version != "00" || parts.count == 4
        else { return nil }
        let (traceID, parentID, flags) = (parts[1], parts[2], parts[3])
        guard traceID.count == 32, Self.isHex(traceID), traceID.contains(where: { $0 != "0" }),
            parentID.count == 16, Self.isHex(parentID), parentID.contains(where: { $0 != "0" }),
            flags.count == 2, Self.isHex(flags), let flagBits = UInt8(flags, radix: 16)
        else { return nil }
        self.init(traceID: String(traceID), parentID: String(parentID), flags: flagBits)
    }

    /// A `traceparent` of version `00` with these fields.
    ///
    /// - Parameters:
    ///   - traceID: 32 lower-case hex digits.
    ///   - parentID: 16 lower-case hex digits.
    ///   - flags: The trace flags, e.g. `1` for sampled.
    public init(traceID: String, parentID: String, flags: UInt8) {
        self.traceID = traceID
        self.parentID = parentID
        self.flags = flags
    }

    /// The header value, version `00`.
    public var description: String {
        let hexFlags = String(flags, radix: 16)
        return "00-\(traceID)-\(parentID)-\(hexFlags.count == 1 ? "0" + hexFlags : hexFlags)"
    }

    private static func isHex(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
