import Foundation
import RPCCore
import Testing
import TestSupport

@Suite("Metadata")
struct MetadataTests {
    @Test("lower-cases keys when adding and when looking up")
    func lowerCasesKeys() {
        var metadata = Metadata()
        metadata.add("X-Request-ID", "42")
        metadata.add("x-request-id", .string("43"))
        #expect(metadata.map(\.key) == ["x-request-id", "x-request-id"])
        #expect(metadata["X-REQUEST-ID"] == [.string("42"), .string("43")])
        #expect(metadata.first("x-Request-Id") == "42")
        #expect(metadata.count == 2)
    }

    @Test("stores text added under a -bin key as bytes")
    func binKeysAreBinary() {
        var metadata = Metadata()
        metadata.add("Trace-Bin", "abc")
        #expect(metadata["trace-bin"] == [.binary([0x61, 0x62, 0x63])])
        #expect(metadata.firstBinary("trace-bin") == [0x61, 0x62, 0x63])
        #expect(metadata.first("trace-bin") == nil, "a binary value has no text")
    }

    @Test("builds from a dictionary literal")
    func dictionaryLiteral() {
        let metadata: Metadata = ["X-User": "ada", "trace-bin": "xyz", "raw-bin": .binary([0, 255])]
        #expect(metadata.map(\.key) == ["x-user", "trace-bin", "raw-bin"])
        #expect(metadata.map(\.value) == [.string("ada"), .binary(Array("xyz".utf8)), .binary([0, 255])])
        let empty: Metadata = [:]
        #expect(empty.isEmpty)
        #expect(empty == Metadata())
    }

    @Test("replaces and removes every value of a key")
    func replaceAndRemove() {
        var metadata: Metadata = ["a": "1", "b": "2"]
        metadata.add("A", "3")
        metadata.replace("a", "4")
        #expect(metadata["a"] == [.string("4")])
        #expect(metadata.map(\.key) == ["b", "a"])
        metadata.remove("B")
        #expect(metadata["b"].isEmpty)
        #expect(metadata.count == 1)
    }

    @Test("exposes values as text and as bytes")
    func values() {
        #expect(Metadata.Value.string("hé").bytes == [0x68, 0xC3, 0xA9])
        #expect(Metadata.Value.binary([1, 2]).bytes == [1, 2])
        #expect(Metadata.Value.binary([1, 2]).stringValue == nil)
        #expect(Metadata.Value.string("x").stringValue == "x")
    }

    @Test("base64-encodes binary values in header fields")
    func headerFieldsEncodeBinary() throws {
        var metadata: Metadata = ["x-user": "ada"]
        metadata.add("trace-bin", .binary([0, 1, 2, 0xFF]))
        let fields = metadata.headerFields
        try #require(fields.count == 2)
        #expect(fields[0] == ("x-user", "ada"))
        #expect(fields[1].name == "trace-bin")
        #expect(Base64.decode(fields[1].value) == [0, 1, 2, 0xFF])
        // Decode with Foundation too, padding the value in case it was sent unpadded.
        var padded = fields[1].value
        while padded.count % 4 != 0 { padded += "=" }
        #expect(Data(base64Encoded: padded).map(Array.init) == [0, 1, 2, 0xFF])
    }

    @Test("treats protocol header names as reserved", arguments: [
        ":path", ":authority", ":method", ":scheme", ":status", "content-type", "te", "grpc-timeout",
        "grpc-status", "grpc-message", "grpc-encoding", "grpc-accept-encoding", "connection", "keep-alive",
        "transfer-encoding", "upgrade", "proxy-connection", "content-length", "host",
    ])
    func reserved(name: String) {
        #expect(Metadata.isReserved(name))
        let metadata = Metadata(headerFields: [(name: name, value: "x"), (name: "x-kept", value: "y")])
        #expect(metadata.map(\.key) == ["x-kept"])
        #expect(metadata.first("x-kept") == "y")
    }

    @Test("does not reserve custom names", arguments: ["authorization", "x-request-id", "user-agent", "trace-bin", "grpc", "tee"])
    func notReserved(name: String) {
        #expect(!Metadata.isReserved(name))
    }

    @Test("decodes -bin values from received header fields, padded or not")
    func initHeaderFieldsDecodesBinary() {
        let metadata = Metadata(headerFields: [
            (name: "a-bin", value: "AAEC/w=="),
            (name: "b-bin", value: "AAEC/w"),
            (name: "c-bin", value: "not base64!"),
            (name: "plain", value: "AAEC/w=="),
        ])
        #expect(metadata.firstBinary("a-bin") == [0, 1, 2, 0xFF])
        #expect(metadata.firstBinary("b-bin") == [0, 1, 2, 0xFF])
        #expect(metadata.firstBinary("c-bin") == Array("not base64!".utf8), "invalid base64 is kept as its text bytes")
        #expect(metadata.first("plain") == "AAEC/w==")
    }

    @Test("round-trips through header fields", arguments: 0..<8 as Range<UInt64>)
    func headerFieldsRoundTrip(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var metadata = Metadata()
        for index in 0..<rng.int(in: 0...10) {
            if rng.int(in: 0...1) == 0 {
                metadata.add("k\(index % 3)-bin", .binary(rng.bytes(rng.int(in: 0...20))))
            } else {
                metadata.add("k\(index % 3)", "value \(rng.next())")
            }
        }
        #expect(Metadata(headerFields: metadata.headerFields) == metadata)
    }
}
