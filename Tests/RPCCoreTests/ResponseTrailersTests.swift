import Foundation
import RPCCore
import Testing

/// The trailer these tests carry error details in: a service's own, not the generic one.
private let detailTrailer = "acme-error-bin"

extension ResponseTrailers {
    /// The header fields, the detail in `detailTrailer`.
    fileprivate var fields: [(name: String, value: String)] { headerFields(detailTrailer: detailTrailer) }

    /// Parses header fields, the detail from `detailTrailer`.
    fileprivate init(headerFields: some Collection<(name: String, value: String)>) {
        self.init(headerFields: headerFields, detailTrailer: detailTrailer)
    }
}

@Suite("ResponseTrailers")
struct ResponseTrailersTests {
    static let detailed = ResponseTrailers(
        code: .notFound,
        message: "no item 42 — Générative ✓ 100%",
        detail: ErrorDetail(reason: "notFound", field: "id", details: ["id": 42, "kind": "item", "soft": false, "ratio": 0.5]),
        metadata: ["x-request-id": "abc", "trace-bin": .binary([0, 1, 2, 0xFF]), "x-multi": "1"]
    )

    @Test("round-trips status, message, detail and metadata through header fields")
    func roundTrip() throws {
        var trailers = Self.detailed
        trailers.metadata.add("x-multi", "2")
        let parsed = ResponseTrailers(headerFields: trailers.fields)
        #expect(parsed == trailers)
        #expect(parsed.detail?.details?["id"]?.intValue == 42)
        #expect(parsed.detail?.details?["kind"]?.stringValue == "item")
        #expect(parsed.metadata["x-multi"] == [.string("1"), .string("2")])
    }

    @Test("writes grpc-status first, then grpc-message, the detail and the metadata")
    func headerFieldLayout() throws {
        let fields = Self.detailed.fields
        #expect(fields.map(\.name) == ["grpc-status", "grpc-message", detailTrailer, "x-request-id", "trace-bin", "x-multi"])
        #expect(fields[0].value == "5")
        #expect(fields[1].value == "no item 42 %E2%80%94 G%C3%A9n%C3%A9rative %E2%9C%93 100%25")

        // The detail is base64 of a JSON object.
        let json = try #require(Base64.decode(fields[2].value))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        #expect(object["reason"] as? String == "notFound")
        #expect(object["field"] as? String == "id")
        #expect((object["details"] as? [String: Any])?["id"] as? Int == 42)
    }

    @Test("writes only grpc-status for a bare OK")
    func bareOK() {
        let fields = ResponseTrailers.ok().fields
        #expect(fields.map(\.name) == ["grpc-status"])
        #expect(fields.first?.value == "0")
        #expect(ResponseTrailers.ok().error == nil)
        #expect(ResponseTrailers.ok(["x": "y"]).metadata.first("x") == "y")
    }

    @Test("omits absent detail fields on the wire")
    func sparseDetail() throws {
        let trailers = ResponseTrailers(code: .invalidArgument, message: "bad", detail: ErrorDetail(reason: "invalidMessage"))
        let value = try #require(trailers.fields.first { $0.name == detailTrailer }?.value)
        #expect(Base64.decode(value) == Array(#"{"reason":"invalidMessage"}"#.utf8))
        #expect(ResponseTrailers(headerFields: trailers.fields) == trailers)
    }

    @Test("the detail travels under the trailer named: under another name it is metadata, and the generic name differs")
    func trailerName() throws {
        let fields = Self.detailed.fields
        let parsedAsOther = ResponseTrailers(headerFields: fields, detailTrailer: ErrorDetailNames.generic.trailer)
        #expect(parsedAsOther.detail == nil)
        #expect(parsedAsOther.metadata[detailTrailer].count == 1)
        #expect(ResponseTrailers(headerFields: fields).detail == Self.detailed.detail)
        let generic = Self.detailed.headerFields(detailTrailer: ErrorDetailNames.generic.trailer)
        #expect(generic.contains { $0.name == "error-detail-bin" } && !generic.contains { $0.name == detailTrailer })
    }

    @Test("sends the detail once even when the metadata also holds its key")
    func detailNotDuplicated() {
        var trailers = Self.detailed
        trailers.metadata.add(detailTrailer, .binary([1, 2, 3]))
        let fields = trailers.fields
        #expect(fields.filter { $0.name == detailTrailer }.count == 1)
        #expect(ResponseTrailers(headerFields: fields).detail == Self.detailed.detail)
    }

    @Test("ignores an undecodable detail and keeps it out of the metadata")
    func badDetail() {
        let parsed = ResponseTrailers(headerFields: [
            (name: "grpc-status", value: "13"),
            (name: detailTrailer, value: "!!!"),
            (name: "x-a", value: "b"),
        ])
        #expect(parsed.code == .internalError)
        #expect(parsed.detail == nil)
        #expect(parsed.metadata.map(\.key) == ["x-a"])
    }

    @Test("reads a missing grpc-status as INTERNAL")
    func missingStatus() {
        let parsed = ResponseTrailers(headerFields: [(name: "grpc-message", value: "hello"), (name: "x-a", value: "b")])
        #expect(parsed.code == .internalError)
        #expect(!parsed.message.isEmpty)
        #expect(parsed.error?.code == .internalError)
    }

    @Test("reads a non-numeric grpc-status, or one past 64 bits, as INTERNAL", arguments: ["abc", "", "1.0", "OK", " 0", "99999999999999999999", "-99999999999999999999"])
    func nonNumericStatus(value: String) {
        let parsed = ResponseTrailers(headerFields: [(name: "grpc-status", value: value)])
        #expect(parsed.code == .internalError)
        #expect(parsed.message.contains("grpc-status"))
    }

    @Test("reads an unknown status number as UNKNOWN", arguments: ["99", "17", "-1"])
    func unknownNumber(value: String) {
        let parsed = ResponseTrailers(headerFields: [(name: "grpc-status", value: value), (name: "grpc-message", value: "why%3F")])
        #expect(parsed.code == .unknown)
        #expect(parsed.message == "why?")
    }

    @Test("reads every known status number", arguments: 0...16)
    func knownNumbers(number: Int) throws {
        let parsed = ResponseTrailers(headerFields: [(name: "grpc-status", value: String(number))])
        #expect(parsed.code == StatusCode(rawValue: number))
    }

    @Test("converts to and from RPCError")
    func errorConversion() throws {
        let error = try #require(Self.detailed.error)
        #expect(error.code == .notFound)
        #expect(error.message == Self.detailed.message)
        #expect(error.detail == Self.detailed.detail)
        #expect(error.metadata == Self.detailed.metadata)
        #expect(ResponseTrailers(error: error) == Self.detailed)
    }
}

@Suite("ResponseTrailers stay small whatever an error quotes")
struct ResponseTrailersSizeTests {
    @Test("a message past the limit is cut on a scalar boundary and marked; one at the limit is whole")
    func longMessage() {
        let atLimit = String(repeating: "é", count: ResponseTrailers.maxMessageBytes / 2)
        #expect(ResponseTrailers(headerFields: ResponseTrailers(code: .notFound, message: atLimit).fields).message == atLimit)
        // One cluster of 1.9 MB: "1e" and 950 000 combining acute accents.
        let huge = "1e" + String(repeating: "\u{301}", count: 950_000)
        let fields = ResponseTrailers(code: .notFound, message: huge).fields
        let message = ResponseTrailers(headerFields: fields).message
        #expect(message.utf8.count <= ResponseTrailers.maxMessageBytes)
        #expect(message.unicodeScalars.starts(with: "1e\u{301}\u{301}".unicodeScalars) && message.hasSuffix("…"))
        #expect(fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count } < 8 * 1024)
    }

    @Test("a detail past the limit keeps its reason and field, without its details")
    func largeDetail() throws {
        let echoed = String(repeating: "x", count: 1_000_000)
        let trailers = ResponseTrailers(
            code: .notFound, message: "unknown service",
            detail: ErrorDetail(reason: "unknownService", field: "service", details: ["id": .string(echoed)]))
        let fields = trailers.fields
        let detail = try #require(ResponseTrailers(headerFields: fields).detail)
        #expect(detail == ErrorDetail(reason: "unknownService", field: "service"))
        #expect(fields.reduce(0) { $0 + $1.value.utf8.count } < 8 * 1024)
        let small = ErrorDetail(reason: "unknownService", details: ["id": .string("x")])
        #expect(ResponseTrailers(headerFields: ResponseTrailers(code: .notFound, message: "m", detail: small).fields).detail == small)
    }
}
