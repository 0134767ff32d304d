import Foundation
import Testing

@testable import RPCCore
import TestSupport

@Suite("RFC 3339 timestamps")
struct RFC3339Tests {
    @Test("formats exactly as Foundation's ISO 8601 formatter, whole seconds in UTC", arguments: 1...20)
    func matchesFoundation(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let reference = ISO8601DateFormatter()
        for _ in 0..<500 {
            // From 1900 to 2200, with fractions of a second.
            let seconds = Double(generator.next() % 9_466_848_000) - 2_208_988_800 + Double(generator.next() % 1000) / 1000
            let date = Date(timeIntervalSince1970: seconds)
            #expect(RFC3339.format(date) == reference.string(from: date), "\(seconds)")
        }
    }

    @Test("known instants, including the epoch, a leap day and a negative time")
    func knownInstants() {
        #expect(RFC3339.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: -1.5)) == "1969-12-31T23:59:58Z")
        #expect(RFC3339.format(Date(timeIntervalSince1970: 1_769_162_400)) == "2026-01-23T10:00:00Z")
    }

    @Test("the JSON codec writes dates this way")
    func codecUsesIt() throws {
        struct Stamped: Codable { var at: Date }
        let bytes = try JSONCodec.shared.encode(Stamped(at: Date(timeIntervalSince1970: 1_769_162_400)))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"at":"2026-01-23T10:00:00Z"}"#)
    }
}
