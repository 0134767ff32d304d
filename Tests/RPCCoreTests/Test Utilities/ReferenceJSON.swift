import Foundation
import Testing

@testable import RPCCore

/// Foundation's `JSONEncoder` set up as `JSONCodec` set it up before it had its own encoder:
/// the reference the streaming encoder must agree with.
enum ReferenceJSON {
    static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.format(date))
        }
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// The streaming encoder's output, which must not need the fallback.
    static func streamed<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        try #require(try StreamingJSONEncoder().encode(value), "\(Value.self) did not stream")
    }
}
