import CatalogKit
import CatalogTesting
import CatalogViewModels
import ObservationTestSupport
import Testing

/// `FilterModel` on the built-in `categories` filter of an `InProcessCatalog`: the states,
/// another client's changes, the model's own actions and refusals, a lost stream; the same
/// seen by the view whether the model follows the filter in sessions or by Watch and calls.
@Suite("FilterModel")
@MainActor
struct FilterModelTests {
    /// How the model follows its filter.
    enum Following: CaseIterable, Sendable {
        /// `Filters/Session`: the client streams both ways.
        case inSessions
        /// Watch and unary calls: a client without sessions.
        case byWatchAndCalls

        func filters(_ filters: FiltersClient) -> any FiltersClientProtocol {
            self == .inSessions ? filters : HeldFilters(filters)
        }
    }

    @Test("run() shows the filter's snapshot and becomes live; it returns when its task is cancelled", arguments: Following.allCases)
    func snapshot(following: Following) async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let model = FilterModel(filters: following.filters(catalog.client.filters), filterId: "categories")
        #expect(model.connection == .connecting)
        #expect(model.revision == nil && model.options.isEmpty)

        let running = Task { await model.run() }
        try await waitUntil("the model is live") { model.connection == .live }
        let state = try await catalog.client.filters.get("categories")
        #expect(model.title == state.title)
        #expect(model.options == state.options)
        #expect(model.options.map(\.id) == (try await catalog.client.categories.list()).map(\.id))
        #expect(model.selectedOptionId == state.selectedId)
        #expect(model.isCollapsed == (state.presentation == .collapsed))
        #expect(model.revision == state.revision)

        running.cancel()
        await running.value
        await catalog.close()
    }

    @Test("a selection made by another client shows up in the model with its revision", arguments: Following.allCases)
    func followsAnotherClient(following: Following) async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let model = FilterModel(filters: following.filters(catalog.client.filters), filterId: "categories")
        let running = Task { await model.run() }
        try await waitUntil("the model is live") { model.connection == .live }
        let option = try #require(model.options.last)

        let other = catalog.newClient()
        var answer: FilterState?
        let selected = try await nextChange(of: { model.selectedOptionId }, "the other client's selection") {
            answer = try await other.filters.select("categories", optionId: option.id)
        }
        #expect(selected == option.id)
        #expect(model.revision == answer?.revision)
        #expect(model.selectedOption == option)

        let collapsed = try await nextChange(of: { model.isCollapsed }, "the other client's toggle") {
            answer = try await other.filters.togglePresentation("categories")
        }
        #expect(collapsed == (answer?.presentation == .collapsed))
        #expect(model.revision == answer?.revision)

        running.cancel()
        await running.value
        await catalog.close()
    }

    @Test("select and toggleCollapsed change nothing before the server answered, then show its answer")
    func actionsWaitForTheServer() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let filters = HeldFilters(catalog.client.filters)
        let model = FilterModel(filters: filters, filterId: "categories")
        let running = Task { await model.run() }
        try await waitUntil("the model is live") { model.connection == .live }
        let revisions = ObservedValues { model.revision }
        let option = try #require(model.options.first)
        let before = try #require(model.revision)

        let hold = filters.holdNextWrite(.beforeSending)
        let selecting = Task { await model.select(option.id) }
        #expect(await hold.reached.wait(until: .now + .seconds(10)))
        #expect(model.selectedOptionId == nil, "nothing shown before the server answered")
        #expect(model.revision == before)
        hold.release()
        await selecting.value
        #expect(model.selectedOptionId == option.id)
        #expect(try #require(model.revision) > before)
        #expect(model.lastError == nil)

        let collapsedBefore = model.isCollapsed
        let revisionBefore = try #require(model.revision)
        let toggleHold = filters.holdNextWrite(.beforeSending)
        let toggling = Task { await model.toggleCollapsed() }
        #expect(await toggleHold.reached.wait(until: .now + .seconds(10)))
        #expect(model.isCollapsed == collapsedBefore, "nothing shown before the server answered")
        toggleHold.release()
        await toggling.value
        #expect(model.isCollapsed == !collapsedBefore)
        #expect(try #require(model.revision) > revisionBefore)

        await model.clearSelection()
        #expect(model.selectedOptionId == nil)
        let state = try await catalog.client.filters.get("categories")
        try await waitUntil("the model shows the server's state") { model.revision == state.revision }

        revisions.stop()
        let seen = revisions.values.compactMap { $0 }
        #expect(seen == seen.sorted(), "the revision went backwards: \(seen)")
        running.cancel()
        await running.value
        await catalog.close()
    }

    @Test("an answer that arrives after the Watch showed a later change does not take the state back")
    func lateAnswerIgnored() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let filters = HeldFilters(catalog.client.filters)
        let model = FilterModel(filters: filters, filterId: "categories")
        let running = Task { await model.run() }
        try await waitUntil("the model is live") { model.connection == .live }
        let revisions = ObservedValues { model.revision }
        let first = try #require(model.options.first)
        let last = try #require(model.options.last)
        #expect(first != last)

        // The server applies the model's selection; its answer is held back.
        let hold = filters.holdNextWrite(.beforeAnswering)
        let selecting = Task { await model.select(first.id) }
        #expect(await hold.reached.wait(until: .now + .seconds(10)))
        let applied = try await catalog.client.filters.get("categories")
        #expect(applied.selectedId == first.id)
        try await waitUntil("the Watch delivered the model's own change") { model.revision == applied.revision }
        #expect(model.selectedOptionId == first.id)

        // Another client selects another option, which the Watch delivers before the answer.
        let later = try await catalog.newClient().filters.select("categories", optionId: last.id)
        try await waitUntil("the Watch delivered the other client's change") { model.revision == later.revision }

        hold.release()
        await selecting.value
        #expect(model.revision == later.revision, "the older answer was ignored")
        #expect(model.selectedOptionId == last.id)
        #expect(model.lastError == nil)

        revisions.stop()
        let seen = revisions.values.compactMap { $0 }
        #expect(seen == seen.sorted(), "the revision went backwards: \(seen)")
        running.cancel()
        await running.value
        await catalog.close()
    }

    @Test("an action the server refuses sets lastError and leaves the state; a later success clears it", arguments: Following.allCases)
    func refusedAction(following: Following) async throws {
        let catalog = try await InProcessCatalog.start(
            seedDemo: true, tokens: [("r", .reader, "reader-secret"), ("w", .writer, "writer-secret")])
        let reader = FilterModel(filters: following.filters(catalog.newClient(bearerToken: "reader-secret").filters), filterId: "categories")
        let running = Task { await reader.run() }
        try await waitUntil("the reader's model is live") { reader.connection == .live }
        let revision = reader.revision
        let option = try #require(reader.options.first)

        let error = try await nextChange(of: { reader.lastError }, "the refusal") { await reader.select(option.id) }
        #expect(error?.code == .permissionDenied)
        #expect(reader.selectedOptionId == nil)
        #expect(reader.revision == revision)

        let collapsed = reader.isCollapsed
        reader.dismissError()
        #expect(reader.lastError == nil)
        await reader.toggleCollapsed()
        #expect(reader.lastError?.code == .permissionDenied)
        #expect(reader.isCollapsed == collapsed)
        #expect(reader.revision == revision)
        #expect(try await catalog.newClient(bearerToken: "reader-secret").filters.get("categories").revision == revision)

        let writer = FilterModel(filters: following.filters(catalog.newClient(bearerToken: "writer-secret").filters), filterId: "categories")
        let writing = Task { await writer.run() }
        try await waitUntil("the writer's model is live") { writer.connection == .live }
        await writer.select(987_654_321)
        #expect(writer.lastError?.code == .notFound)
        #expect(writer.lastError?.reason == "unknownOption")
        await writer.select(option.id)
        #expect(writer.lastError == nil)
        #expect(writer.selectedOptionId == option.id)
        await writer.select(option.id)
        #expect(writer.lastError == nil, "a selection that changes nothing is no error")
        #expect(writer.selectedOptionId == option.id)

        writing.cancel()
        await writing.value
        running.cancel()
        await running.value
        await catalog.close()
    }

    @Test("closing the catalog makes the model reconnecting with UNAVAILABLE", arguments: Following.allCases)
    func reconnecting(following: Following) async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let model = FilterModel(filters: following.filters(catalog.client.filters), filterId: "categories")
        let running = Task { await model.run() }
        try await waitUntil("the model is live") { model.connection == .live }
        let revision = model.revision

        await catalog.close()
        try await waitUntil("the model is reconnecting") {
            if case .reconnecting(let error) = model.connection { error.code == .unavailable } else { false }
        }
        #expect(model.revision == revision, "the state shown stays")

        running.cancel()
        await running.value
    }

    @Test("a Watch that cannot go on (no such filter) makes the model failed and ends run()", arguments: Following.allCases)
    func failed(following: Following) async throws {
        let catalog = try await InProcessCatalog.start()
        let model = FilterModel(filters: following.filters(catalog.client.filters), filterId: "no-such-filter")
        await model.run()
        guard case .failed(let error) = model.connection else {
            Issue.record("connection is \(model.connection)")
            return
        }
        #expect(error.code == .notFound)
        await catalog.close()
    }
}
