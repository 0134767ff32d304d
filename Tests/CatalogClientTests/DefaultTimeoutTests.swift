import CatalogKit
import Testing

@Suite("The client's default timeout bounds unary calls, not watches; a call can opt out")
struct DefaultTimeoutTests {
    private static func configuration(defaultTimeout: Duration) -> CatalogClient.Configuration {
        var configuration = CatalogClient.Configuration.defaults
        configuration.defaultCallOptions.timeout = defaultTimeout
        return configuration
    }

    @Test("a watch stays open past the default timeout: a heartbeat after it, then a change", .timeLimit(.minutes(1)))
    func watchOutlivesTheDefaultTimeout() async throws {
        try await withConnectedClient(configuration: Self.configuration(defaultTimeout: .milliseconds(500))) { client in
            _ = try await client.filters.define("formations", title: "Niveaux", options: [FilterOption(id: 1, title: "Débutant")])
            let opened = ContinuousClock.now
            let watch = RecordedWatch(client, filterId: "formations", heartbeatSeconds: 1)
            #expect(await watch.next()?.kind == .snapshot)
            #expect(await watch.next()?.kind == .synced)
            // The server sends a heartbeat after a quiet second: by then the default timeout
            // would have ended the watch.
            let heartbeat = try #require(await watch.next(), "the watch ended before a heartbeat")
            #expect(heartbeat.kind == .heartbeat)
            #expect(ContinuousClock.now - opened > .milliseconds(500))

            _ = try await client.filters.select("formations", optionId: 1)
            try await watch.read(throughRevision: 2)
            #expect(watch.stateRevisions == [1, 2])
            #expect(watch.interruptions == 0)
            watch.cancel()
            #expect(await watch.end() == nil)
        }
    }

    @Test("with a default timeout that has already run out, .noTimeout calls succeed and watches run")
    func optingOut() async throws {
        try await withConnectedClient(configuration: Self.configuration(defaultTimeout: .zero)) { client in
            let error = try await #require(throws: RPCError.self) { try await client.categories.list() }
            #expect(error.code == .deadlineExceeded, "the default timeout bounds a call without one of its own")

            #expect(try await client.categories.list(options: .noTimeout).count == 4)
            #expect(try await client.categories.list(options: .timeout(.seconds(30))).count == 4)
            var options = CallOptions.noTimeout
            options.metadata.add("x-request", "1")
            _ = try await client.filters.get("categories", options: options)

            var statuses = try await client.health.watch().makeAsyncIterator()
            #expect(try await statuses.next()?.status == .serving)
            let watch = RecordedWatch(client, filterId: "categories")
            #expect(await watch.next()?.kind == .snapshot)
            watch.cancel()
            #expect(await watch.end() == nil)
        }
    }
}
