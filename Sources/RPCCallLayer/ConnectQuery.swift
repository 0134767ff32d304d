import RPCCore

/// The query of a Connect GET: `encoding`, `message` (URL-encoded, or URL-safe base64 with
/// `base64=1`), `compression` and `connect`. Unknown parameters are ignored.
package struct ConnectQuery {
    var encoding: String?
    var compression: String?
    var connect: String?
    /// The request message's bytes; empty when the query has none (`{}`).
    var message: [UInt8]

    init(_ query: Substring) {
        var fields: [String: [UInt8]] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(decoding: Self.percentDecoded(parts[0]), as: UTF8.self)
            if fields[name] == nil { fields[name] = parts.count > 1 ? Self.percentDecoded(parts[1]) : [] }
        }
        func text(_ name: String) -> String? { fields[name].map { String(decoding: $0, as: UTF8.self) } }
        encoding = text("encoding")
        compression = text("compression")
        connect = text("connect")
        var message = fields["message"] ?? []
        if text("base64") == "1" {
            message = Base64.decode(String(decoding: message, as: UTF8.self)) ?? Array("\u{FF}".utf8)  // not base64: fails to decode
        }
        self.message = message
    }

    /// `text` with `%XX` escapes and `+` (a space) decoded; a malformed escape is kept as it is.
    static func percentDecoded(_ text: Substring) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.utf8.count)
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                let high = utf8.next(), low = utf8.next()
                if let high, let low, let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                    bytes.append(value)
                } else {
                    bytes.append(byte)
                    if let high { bytes.append(high) }
                    if let low { bytes.append(low) }
                }
            default:
                bytes.append(byte)
            }
        }
        return bytes
    }
}
