import CatalogAPI
import RPCCore
import Testing

/// The enums of the answers take the values a newer server adds: an older client keeps
/// reading the stream instead of failing on the first value it does not know.
@Suite("Answers: an enum value this version does not know decodes as .unknown and encodes back")
struct WireEnumTests {
    private let codec = JSONCodec()

    private func decode<Message: Decodable>(_: Message.Type, _ json: String) throws -> Message {
        try codec.decode(Message.self, from: Array(json.utf8))
    }

    private func encoded(_ message: some Encodable) throws -> String {
        String(decoding: try codec.encode(message), as: UTF8.self)
    }

    @Test("an event of an unknown kind")
    func unknownEventKind() throws {
        let json = #"{"kind":"digest","revision":7}"#
        let event = try decode(FilterEvent.self, json)
        #expect(event.kind == .unknown("digest"))
        #expect(event.kind.rawValue == "digest")
        #expect(event.revision == 7)
        #expect(try encoded(event) == json)
    }

    @Test("a state with an unknown presentation and source")
    func unknownPresentationAndSource() throws {
        let json =
            #"{"filterId":"f","title":"F","options":[],"presentation":"sideways","revision":3,"updatedAt":"2026-01-23T10:00:00Z","source":"tags"}"#
        let state = try decode(FilterState.self, json)
        #expect(state.presentation == .unknown("sideways"))
        #expect(state.source == .unknown("tags"))
        #expect(state.presentation.toggled == .unknown("sideways"), "an unknown presentation has no known other")
        #expect(try encoded(state) == json)
    }

    @Test("known values decode as their cases and encode as before", arguments: ["snapshot", "change", "synced", "heartbeat"])
    func knownKinds(kind: String) throws {
        let json = #"{"kind":"\#(kind)","revision":1}"#
        let event = try decode(FilterEvent.self, json)
        #expect(event.kind == FilterEvent.Kind(rawValue: kind))
        if case .unknown = event.kind { Issue.record("a known kind decoded as unknown") }
        #expect(event.kind == .unknown(kind), "equal: the same value on the wire")
        #expect(Set([event.kind, .unknown(kind)]).count == 1)
        #expect(try encoded(event) == json)
    }

    @Test("init(rawValue:) and allCases know the known values only, as the schema lists them")
    func knownValuesOnly() {
        #expect(FilterEvent.Kind.allCases.map(\.rawValue) == ["snapshot", "change", "synced", "heartbeat", "ack"])
        #expect(FilterPresentation.allCases.map(\.rawValue) == ["expanded", "collapsed"])
        #expect(FilterSource.allCases.map(\.rawValue) == ["categories"])
        #expect(FilterEvent.Kind(rawValue: "digest") == nil)
        #expect(FilterPresentation(rawValue: "sideways") == nil)
        #expect(FilterSource(rawValue: "tags") == nil)
        #expect(FilterPresentation.expanded.toggled == .collapsed && FilterPresentation.collapsed.toggled == .expanded)
    }

    @Test("a value that is not a string still fails")
    func notAString() {
        #expect(throws: RPCError.self) { try decode(FilterEvent.self, #"{"kind":3,"revision":1}"#) }
    }
}
