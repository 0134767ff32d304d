import CatalogAPI
import CatalogKit
import Testing

@Suite("Reads are retried on UNAVAILABLE, writes never")
struct RetryTests {
    private static var fastRetries: CatalogClient.Configuration {
        var configuration = CatalogClient.Configuration.defaults
        configuration.retry = RetryPolicy(maxAttempts: 3, backoff: Backoff(initial: .milliseconds(10), maximum: .milliseconds(50)))
        return configuration
    }

    @Test("a read that fails with UNAVAILABLE twice succeeds on the third attempt")
    func readRetried() async throws {
        try await withProbeServer { port, probe in
            let client = try await CatalogClient.connect(port: port, configuration: Self.fastRetries)
            probe.failLists(2)
            #expect(try await client.categories.list().isEmpty)
            #expect(probe.calls(CategoriesService.list) == 3)
            await client.close()
        }
    }

    @Test("a read gives up after maxAttempts with the last UNAVAILABLE")
    func readGivesUp() async throws {
        try await withProbeServer { port, probe in
            let client = try await CatalogClient.connect(port: port, configuration: Self.fastRetries)
            probe.failLists(10)
            let error = try await #require(throws: RPCError.self) { try await client.categories.list() }
            #expect(error.code == .unavailable)
            #expect(error.message == "scripted outage")
            #expect(probe.calls(CategoriesService.list) == 3)
            await client.close()
        }
    }

    @Test("a write that fails with UNAVAILABLE is not retried")
    func writeNotRetried() async throws {
        try await withProbeServer { port, probe in
            let client = try await CatalogClient.connect(port: port, configuration: Self.fastRetries)
            let error = try await #require(throws: RPCError.self) { try await client.categories.create(name: "Books") }
            #expect(error.code == .unavailable)
            #expect(probe.calls(CategoriesService.create) == 1)
            await client.close()
        }
    }

    @Test("a read that fails with another code is not retried")
    func otherCodesNotRetried() async throws {
        try await withProbeServer { port, probe in
            let client = try await CatalogClient.connect(port: port, configuration: Self.fastRetries)
            let error = try await #require(throws: RPCError.self) { try await client.categories.get(id: 7) }
            #expect(error.code == .notFound)
            #expect(error.details["id"]?.int64Value == 7)
            #expect(probe.calls(CategoriesService.get) == 1)
            await client.close()
        }
    }

    @Test("retries stop at the call's timeout")
    func retriesWithinTimeout() async throws {
        try await withProbeServer { port, probe in
            var configuration = CatalogClient.Configuration.defaults
            configuration.retry = RetryPolicy(maxAttempts: 200, backoff: Backoff(initial: .milliseconds(100), maximum: .milliseconds(100)))
            let client = try await CatalogClient.connect(port: port, configuration: configuration)
            probe.failLists(100)
            let started = ContinuousClock.now
            let error = try await #require(throws: RPCError.self) {
                try await client.categories.list(options: .timeout(.seconds(5)))
            }
            // The last attempt fails UNAVAILABLE, or the timeout lands during one (DEADLINE_EXCEEDED).
            #expect([.unavailable, .deadlineExceeded].contains(error.code), "\(error)")
            #expect(ContinuousClock.now - started < .seconds(15))
            // 200 attempts 100 ms apart would take 20 s: the timeout, not the attempt limit, stopped it.
            // (On a loaded machine the first attempt alone may take the whole 5 s; that retries
            // happen at all is `readRetried`'s to show.)
            #expect((1..<100).contains(probe.calls(CategoriesService.list)), "\(probe.calls(CategoriesService.list)) attempts")
            await client.close()
        }
    }
}
