import Foundation
import RPCCore
import Testing
import TestSupport

@Suite("Base64")
struct Base64Tests {
    @Test("encodes the RFC 4648 test vectors", arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
    func vectors(text: String, encoded: String) {
        #expect(Base64.encode(Array(text.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(text.utf8))
    }

    @Test("round-trips every length from 0 to 20, padded and unpadded", arguments: 0...20)
    func roundTrip(length: Int) throws {
        var rng = SplitMix64(seed: UInt64(length) + 500)
        let bytes = rng.bytes(length)
        let encoded = Base64.encode(bytes)
        #expect(encoded == Data(bytes).base64EncodedString(), "matches Foundation's encoder")
        #expect(encoded.utf8.count == (length + 2) / 3 * 4)
        #expect(Base64.decode(encoded) == bytes)

        let unpadded = String(encoded.prefix { $0 != "=" })
        #expect(unpadded.count == encoded.count - (3 - length % 3) % 3)
        #expect(Base64.decode(unpadded) == bytes)
    }

    @Test("decodes every byte value and both alphabets' characters 62 and 63")
    func alphabet() {
        let all = (0...255).map(UInt8.init)
        #expect(Base64.decode(Base64.encode(all)) == all)
        #expect(Base64.decode("+/8=") == [0xFB, 0xFF])
        #expect(Base64.decode("-_8") == [0xFB, 0xFF], "URL-safe characters are accepted")
    }

    @Test("rejects characters outside the alphabet", arguments: ["Zm9v!", "Zm 9v", "Zm9v\n", "Zm.v", "Zé==", "*", "Zm9v\0"])
    func invalid(text: String) {
        #expect(Base64.decode(text) == nil)
    }
}
