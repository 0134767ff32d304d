import RPCCore
import Testing

@Suite("ContentType")
struct ContentTypeTests {
    @Test("parses the gRPC content types, ignoring case and parameters", arguments: [
        ("application/grpc", ContentType.grpc),
        ("application/grpc+json", .grpcJSON),
        ("Application/GRPC", .grpc),
        ("application/grpc; charset=utf-8", .grpc),
        ("application/grpc+json ;charset=utf-8", .grpcJSON),
        ("application/grpc+cbor", .grpcCBOR),
        ("application/GRPC+CBOR; foo=bar", .grpcCBOR),
    ])
    func parses(value: String, expected: ContentType) {
        #expect(ContentType(headerValue: value) == expected)
    }

    @Test("rejects content types without a codec here", arguments: [
        "", "application/x-www-form-urlencoded", "application/grpc+proto", "application/proto", "application/grpcx", "text/plain",
    ])
    func rejects(value: String) {
        #expect(ContentType(headerValue: value) == nil)
    }

    @Test("echoes its exact header value and selects its codec")
    func properties() {
        #expect(ContentType.grpcCBOR.headerValue == "application/grpc+cbor")
        #expect(ContentType.grpcCBOR.codecName == "cbor")
        #expect(ContentType.grpcCBOR.codec is CBORCodec)
        #expect(ContentType.grpc.headerValue == "application/grpc")
        #expect(ContentType.grpcJSON.headerValue == "application/grpc+json")
        #expect(ContentType.grpc.description == "application/grpc")
        #expect(ContentType.grpc.codecName == "json")
        #expect(ContentType.grpcJSON.codecName == "json")
        #expect(ContentType.grpc.codec is JSONCodec)
    }
}

@Suite("HTTP whitespace")
struct HTTPWhitespaceTests {
    @Test("spaces and tabs go at either end, nothing else does", arguments: [
        (" 12 ", "12"), ("\t gzip;q=1 \t", "gzip;q=1"), ("a b", "a b"), ("", ""), (" \t ", ""), ("\u{A0}x", "\u{A0}x"),
    ])
    func trims(_ text: String, _ expected: String) {
        #expect(text.trimmingHTTPWhitespace() == Substring(expected))
    }
}
