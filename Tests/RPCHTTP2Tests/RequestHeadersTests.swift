import RPCCore
import Testing

@testable import RPCCallLayer
@testable import RPCHTTP2

@Suite("RequestHeaders: a header block kept as validation reads it")
struct RequestHeadersTests {
    private func headers(
        _ fields: [(String, String)], limit: Int = 16 * 1024, recent: RequestHeaders.Recent = RequestHeaders.Recent()
    ) -> RequestHeaders {
        var headers = RequestHeaders(limit: limit, recent: recent)
        for (name, value) in fields {
            Array(name.utf8).withUnsafeBytes { name in
                Array(value.utf8).withUnsafeBytes { value in headers.append(name: name, value: value) }
            }
        }
        return headers
    }

    @Test("the protocol's fields are read, the first of each kept; other fields become metadata as Metadata(headerFields:) makes it")
    func fieldsAndMetadata() {
        let fields = [
            (":method", "POST"), (":scheme", "http"), (":path", "/catalog.v1.Catalog/GetItem"), (":authority", "h:1"),
            ("content-type", "application/grpc+json"), ("content-type", "text/plain"), ("te", "trailers"),
            ("grpc-timeout", "5S"), ("grpc-encoding", "gzip"), ("grpc-accept-encoding", "gzip,identity"),
            ("user-agent", "grpc-python/1"), ("x-trace-bin", "AQID"), ("x-trace-bin", "not base64!"), ("content-length", "14"),
        ]
        let parsed = headers(fields)
        #expect(parsed.method == "POST")
        #expect(parsed.path == "/catalog.v1.Catalog/GetItem")
        #expect(parsed.contentType == "application/grpc+json")
        #expect(parsed.timeout == "5S")
        #expect(parsed.encoding == "gzip")
        #expect(parsed.acceptEncoding == "gzip,identity")
        #expect(!parsed.overflowed)
        #expect(parsed.metadata == Metadata(headerFields: fields.map { (name: $0.0, value: $0.1) }))
        #expect(parsed.metadata.first("user-agent") == "grpc-python/1")
        #expect(parsed.metadata["x-trace-bin"] == [.binary([1, 2, 3]), .binary(Array("not base64!".utf8))])
        #expect(parsed.metadata["te"].isEmpty && parsed.metadata["content-length"].isEmpty)
    }

    @Test("a path equal to the previous request's, or another one, reads the same; an unusual content type is kept as sent")
    func reusedStrings() {
        let path = "/grpc.health.v1.Health/Check"
        #expect(headers([(":path", path)], recent: .init(path: path)).path == path)
        #expect(headers([(":path", "/a/B")], recent: .init(path: path)).path == "/a/B")
        #expect(headers([(":path", path)], recent: .init(path: "/grpc.health.v1.Health/Chec")).path == path)
        #expect(headers([("content-type", "application/grpc")]).contentType == "application/grpc")
        #expect(headers([("content-type", "application/grpc; charset=utf-8")]).contentType == "application/grpc; charset=utf-8")
    }

    @Test("metadata repeated from the previous request, in the same order or not, changed or not, reads as sent")
    func reusedMetadata() {
        let first = [
            (":path", "/a/B"), ("te", "trailers"), ("user-agent", "grpc-swift/2"), ("authorization", "Bearer abc"),
            ("x-request-id", "1"), ("x-trace-bin", "AQID"), ("x-tenant", "t"),
        ]
        let previous = headers(first)
        let cases: [[(String, String)]] = [
            first,
            [("user-agent", "grpc-swift/2"), ("authorization", "Bearer abc"), ("x-request-id", "2"), ("x-trace-bin", "AQID"), ("x-tenant", "t")],
            [("te", "trailers"), ("user-agent", "grpc-swift/2"), ("te", "trailers"), ("authorization", "Bearer abc")],
            [("user-agent", "grpc-swift/2"), ("authorization", "Bearer abd")],
            [("authorization", "Bearer abc"), ("user-agent", "grpc-swift/2")],
            [("user-agent", "grpc-swift/2"), ("authorization", "Bearer abc"), ("x-trace-bin", "BAUG"), ("x-extra", "1")],
            [("user-agent", "grpc-swift/22")],
            [("user-agent", "grpc-swift/")],
            [],
        ]
        for fields in cases {
            let parsed = headers(fields, recent: previous.reusable)
            #expect(parsed.metadata == Metadata(headerFields: fields.map { (name: $0.0, value: $0.1) }), "\(fields)")
        }
        #expect(previous.reusable.path == "/a/B")
        #expect(previous.reusable.metadata == previous.metadata.entries)
    }

    @Test("past the size limit (name + value + 32 a field) everything is dropped and the overflow is remembered")
    func overflow() {
        let fields = [(":path", "/a/B"), ("x-big", String(repeating: "v", count: 100)), ("x-after", "1")]
        let exact = headers(fields, limit: (5 + 4 + 32) + (5 + 100 + 32) + (7 + 1 + 32))
        #expect(!exact.overflowed && exact.path == "/a/B" && exact.metadata.count == 2)
        let over = headers(fields, limit: (5 + 4 + 32) + (5 + 100 + 32))
        #expect(over.overflowed)
        #expect(over.path == nil && over.metadata.isEmpty)
    }
}
