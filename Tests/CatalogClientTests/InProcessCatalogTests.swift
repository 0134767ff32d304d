import CatalogAPI
import CatalogKit
import CatalogTesting
import RPCCore
import Testing

/// `InProcessCatalog`: a `CatalogClient` on the real services in the test's process, as app
/// code's tests use it. The same calls, errors, deadlines and Watch events as over a socket.
@Suite("In-process catalog for tests of app code")
struct InProcessCatalogTests {
    @Test("typed calls on the demo catalog, and the contract's errors with their reason, field and details")
    func calls() async throws {
        let catalog = try await InProcessCatalog.start(seedDemo: true)
        let client = catalog.client
        let page = try await client.items.list(pageSize: 5)
        #expect(page.items.count == 5 && page.totalCount == 50)
        let design = try #require(try await client.categories.list().first { $0.name == "Design" })
        #expect(try await client.items.list(categoryId: design.id).items.allSatisfy { $0.categoryId == design.id })

        let duplicate = try await #require(throws: RPCError.self) { try await client.categories.create(name: "design") }
        #expect(duplicate.code == .alreadyExists && duplicate.reason == "duplicateName")
        #expect(duplicate.details["id"]?.int64Value == design.id)
        let empty = try await #require(throws: RPCError.self) { try await client.categories.create(name: " ") }
        #expect(empty.code == .invalidArgument && empty.field == "name")
        let missing = try await #require(throws: RPCError.self) { try await client.items.get(id: 9999) }
        #expect(missing.code == .notFound)
        await catalog.close()
    }

    @Test("a Watch gets the snapshot, synced, then each change another client makes, and resumes from a revision")
    func watch() async throws {
        let catalog = try await InProcessCatalog.start()
        let other = catalog.newClient()
        var events = catalog.client.filters.watch("categories").makeAsyncIterator()
        let snapshot = try #require(try await events.next())
        #expect(snapshot.kind == .snapshot && snapshot.state?.selectedId == nil)
        #expect(try await events.next()?.kind == .synced)
        let selected = try await other.filters.select("categories", optionId: 2)
        let change = try #require(try await events.next())
        #expect(change.kind == .change && change.revision == selected.revision)
        #expect(change.previousRevision == snapshot.revision && change.state?.selectedId == 2)

        _ = try await other.filters.togglePresentation("categories")
        var resumed = catalog.client.filters.watch("categories", sinceRevision: selected.revision).makeAsyncIterator()
        let replayed = try #require(try await resumed.next())
        #expect(replayed.kind == .change && replayed.revision == selected.revision + 1 && replayed.state?.presentation == .collapsed)
        #expect(try await resumed.next()?.kind == .synced)
        await catalog.close()
    }

    @Test("a deadline ends a call with DEADLINE_EXCEEDED; closing the catalog ends its Watch streams")
    func deadlineAndClose() async throws {
        let catalog = try await InProcessCatalog.start()
        var options = CallOptions()
        options.timeout = .zero
        let late = try await #require(throws: RPCError.self) { try await catalog.client.categories.list(options: options) }
        #expect(late.code == .deadlineExceeded)
        let interruptions = AsyncStream<RPCError>.makeStream()
        let watch = catalog.client.filters.watch("categories", onInterruption: { interruptions.continuation.yield($0) })
        let (started, ready) = AsyncStream<Void>.makeStream()
        let reading = Task {
            var events = watch.makeAsyncIterator()
            _ = try await events.next()  // the snapshot
            ready.yield()
            while try await events.next() != nil {}
        }
        var isStarted = started.makeAsyncIterator()
        await isStarted.next()
        await catalog.close()
        var interrupted = interruptions.stream.makeAsyncIterator()
        #expect(await interrupted.next()?.code == .unavailable, "the Watch sees the server's shutdown")
        reading.cancel()
    }
}
