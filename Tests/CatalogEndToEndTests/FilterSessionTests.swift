import CatalogAPI
import CatalogServices
import CatalogServicesTestSupport
import Foundation
import RPCCore
import TestSupport
import Testing

@Suite("Filters: Session, Watch and actions on one stream")
struct FilterSessionTests {
    static let levels = FiltersRPCTests.levels

    @Test("each action is answered in order: the change it made, tagged, or an ack when it changed nothing")
    func answersInOrder() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.levels)
            let (session, opened) = try await SessionProbe.openSynced(server.connection, filterID: "levels")
            #expect(opened.revision == 1)

            try await session.send(.select(2, tag: "t1"))
            let selected = try await session.next()
            #expect(selected.kind == .change)
            #expect(selected.tag == "t1")
            #expect(selected.revision == 2)
            #expect(selected.previousRevision == 1)
            #expect(selected.state?.selectedId == 2)

            try await session.send(.select(2, tag: "t2"))
            let same = try await session.next()
            #expect(same == FilterEvent(kind: .ack, revision: 2, tag: "t2"))

            try await session.send(FilterSessionRequest(tag: "t3", presentation: .collapsed))
            try await session.send(FilterSessionRequest(togglePresentation: true))
            try await session.send(.select(2, toggle: true, tag: "t5"))
            let collapsed = try await session.next()
            let untagged = try await session.next()
            let cleared = try await session.next()
            #expect([collapsed.tag, untagged.tag, cleared.tag] == ["t3", nil, "t5"])
            #expect([collapsed.revision, untagged.revision, cleared.revision] == [3, 4, 5])
            #expect(collapsed.state?.presentation == .collapsed)
            #expect(untagged.kind == .change && untagged.state?.presentation == .expanded)
            #expect(cleared.state?.selectedId == nil)
            #expect(try await server.client.unary(FiltersService.get, FilterIDRequest(filterId: "levels")) == cleared.state)
            session.cancel()
        }
    }

    @Test("a refused action is answered by an ack with its error, and the session goes on")
    func refusedAction() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.levels)
            let (session, _) = try await SessionProbe.openSynced(server.connection, filterID: "levels")
            try await session.send(.select(99, tag: "missing"))
            let refused = try await session.next()
            #expect(refused.kind == .ack)
            #expect(refused.tag == "missing")
            #expect(refused.revision == 1)
            let error = try #require(refused.error)
            #expect(error.code == "not_found")
            #expect(error.reason == "unknownOption")
            #expect(error.rpcError.code == .notFound)
            #expect(refused.state == nil)

            try await session.send(.select(3, tag: "next"))
            let next = try await session.next()
            #expect(next.kind == .change && next.tag == "next" && next.state?.selectedId == 3)
            session.cancel()
        }
    }

    @Test("each action needs the role of its unary call: a reader may open a Session and watch, not change")
    func rolesPerAction() async throws {
        let authorizer = TokenAuthorizer(tokens: try TestTokens.tokenSet())
        try await withCatalogServer(authorizer: authorizer) { server in
            let (reader, _) = try await SessionProbe.openSynced(
                server.connection, filterID: "categories", options: TestTokens.options(TestTokens.reader))
            try await reader.send(FilterSessionRequest(tag: "r", togglePresentation: true))
            let refused = try await reader.next()
            #expect(refused.kind == .ack && refused.tag == "r")
            #expect(refused.error?.code == "permission_denied")

            let (writer, _) = try await SessionProbe.openSynced(
                server.connection, filterID: "categories", options: TestTokens.options(TestTokens.writer))
            try await writer.send(FilterSessionRequest(tag: "w", togglePresentation: true))
            let changed = try await writer.next()
            #expect(changed.kind == .change && changed.tag == "w" && changed.revision == 2)
            let seen = try await reader.next()
            #expect(seen.kind == .change && seen.tag == nil && seen.revision == 2, "the reader sees the change untagged")

            let error = await #expect(throws: RPCError.self) {
                try await SessionProbe.openSynced(server.connection, filterID: "categories").0.cancel()
            }
            #expect(error?.code == .unauthenticated)
            reader.cancel()
            writer.cancel()
        }
    }

    @Test("under writers elsewhere, tags come back once each, in order, among untagged changes with revisions in order", arguments: [FilterDelivery.latest, .everyChange])
    func concurrentWriters(delivery: FilterDelivery) async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.levels)
            let session = try await SessionProbe.open(server.connection, FilterSessionRequest(filterId: "levels", delivery: delivery))
            #expect(try await session.next().kind == .snapshot)
            #expect(try await session.next().kind == .synced)
            let actions = 60
            let other = try await server.connect()
            let elsewhere = Task {
                for index in 0..<actions {
                    _ = try await RPCClient(transport: other).unary(
                        FiltersService.select, SelectFilterRequest(filterId: "levels", optionId: Int64(index % 3 + 1)))
                }
            }
            for index in 0..<actions {
                try await session.send(.select(Int64(index % 3 + 1), toggle: true, tag: "a\(index)"))
            }
            try await session.halfClose()
            var tags: [String] = []
            var lastRevision: Int64 = 1
            var events: [FilterEvent] = []
            while let event = try await session.nextOrEnd() {
                events.append(event)
                if let state = event.state {
                    #expect(event.revision > lastRevision, "revisions in order: \(event.revision) after \(lastRevision)")
                    #expect(event.previousRevision == lastRevision)
                    #expect(state.revision == event.revision)
                    lastRevision = event.revision
                }
                if event.kind == .ack { #expect(event.error == nil) }
                if let tag = event.tag { tags.append(tag) }
            }
            try await elsewhere.value
            await other.close()
            #expect(tags == (0..<actions).map { "a\($0)" }, "every action answered once, in order")
            if delivery == .everyChange {
                let changes = events.filter { $0.kind == .change }.map(\.revision)
                #expect(changes == Array(2...lastRevision), "every change, in order")
            }
        }
    }

    @Test("the half-close ends the session with OK once every action is answered")
    func halfCloseAfterActions() async throws {
        try await withCatalogServer { server in
            let (session, opened) = try await SessionProbe.openSynced(server.connection, filterID: "categories")
            let option = try #require(opened.options.first).id
            try await session.send(.select(option, tag: "1"))
            try await session.send(.select(option, tag: "2"))
            try await session.send(FilterSessionRequest(tag: "3", presentation: .collapsed))
            try await session.halfClose()
            #expect(try await session.next().tag == "1")
            #expect(try await session.next().tag == "2")
            #expect(try await session.next().tag == "3")
            #expect(await session.end() == nil)
        }
    }

    @Test("opening and actions are checked: a malformed one ends the session with INVALID_ARGUMENT", arguments: [
        (#"{"tag": "x", "togglePresentation": true}"#, "filterId", false),
        (#"{"filterId": "Not An Id"}"#, "filterId", false),
        (#"{"filterId": "categories", "tag": "t"}"#, "tag", false),
        (#"{"tag": "t"}"#, "select", true),
        (#"{"select": {}, "togglePresentation": true}"#, "select", true),
        (#"{"togglePresentation": false}"#, "togglePresentation", true),
        (#"{"filterId": "categories", "select": {}}"#, "filterId", true),
        (#"{"tag": "\#(String(repeating: "t", count: 65))", "select": {}}"#, "tag", true),
        (#"{"presentation": "sideways"}"#, "presentation", true),
    ])
    func malformed(message: String, field: String, isAction: Bool) async throws {
        try await withCatalogServer { server in
            let session: SessionProbe
            if isAction {
                session = try await SessionProbe.openSynced(server.connection, filterID: "categories").0
                try await session.send(.select(nil, tag: "fine"))
                #expect(try await session.next().tag == "fine")
            } else {
                session = SessionProbe(call: try await server.connection.openCall(FiltersService.session.descriptor, options: .defaults))
            }
            try await session.send(json: message)
            let error = await session.end()
            #expect(error?.code == .invalidArgument, "\(String(describing: error))")
            #expect(error?.detail?.field == field, "\(String(describing: error))")
            #expect(try await server.client.unary(FiltersService.list, Empty()).filters.allSatisfy { $0.revision == 1 })
        }
    }

    @Test("a half-close before the opening message is INVALID_ARGUMENT")
    func noOpening() async throws {
        try await withCatalogServer { server in
            let session = SessionProbe(call: try await server.connection.openCall(FiltersService.session.descriptor, options: .defaults))
            try await session.halfClose()
            #expect(await session.end()?.code == .invalidArgument)
        }
    }

    @Test("deleting the filter ends its sessions with NOT_FOUND; an unknown filter is NOT_FOUND before any event")
    func deletedFilter() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.levels)
            let (session, _) = try await SessionProbe.openSynced(server.connection, filterID: "levels")
            _ = try await server.client.unary(FiltersService.delete, FilterIDRequest(filterId: "levels"))
            #expect(await session.end()?.detail?.reason == "unknownFilter")
            try await FilterWatchTests.waitForSubscribers(server, 0)

            let unknown = try await SessionProbe.open(server.connection, FilterSessionRequest(filterId: "nothing"))
            #expect(await unknown.end()?.code == .notFound)
        }
    }

    @Test("a Session resumes like Watch: the retained changes after sinceRevision, then synced, then answers")
    func resume() async throws {
        try await withCatalogServer { server in
            _ = try await server.client.unary(FiltersService.define, Self.levels)
            for option in [1, 2, 3] as [Int64] {
                _ = try await server.client.unary(FiltersService.select, SelectFilterRequest(filterId: "levels", optionId: option))
            }
            let session = try await SessionProbe.open(server.connection, FilterSessionRequest(filterId: "levels", sinceRevision: 2))
            try await session.send(.select(1, tag: "mine"))
            #expect(try await session.next().revision == 3)
            #expect(try await session.next().revision == 4)
            let synced = try await session.next()
            #expect(synced.kind == .synced && synced.revision == 4)
            let mine = try await session.next()
            #expect(mine.tag == "mine" && mine.revision == 5 && mine.previousRevision == 4)
            session.cancel()
        }
    }

    @Test("a Session holds a Watch slot while it is open")
    func holdsASlot() async throws {
        try await withCatalogServer { server in
            let (session, _) = try await SessionProbe.openSynced(server.connection, filterID: "categories")
            #expect(server.app.filters.subscriberTotal == 1)
            session.cancel()
            try await FilterWatchTests.waitForSubscribers(server, 0)
        }
    }
}
