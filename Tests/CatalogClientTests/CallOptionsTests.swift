import CatalogAPI
import CatalogKit
import TestSupport
import Testing

@Suite("Per-call options: token, metadata, deadline, cancellation, compression")
struct CallOptionsTests {
    @Test("the connect-time token is sent as authorization: Bearer; a per-call token replaces it")
    func bearerToken() async throws {
        // A probe handler, which checks no token, echoes the header.
        try await withProbeServer { port, _ in
            let client = try await CatalogClient.connect(port: port, bearerToken: "s3cret")
            #expect(try await client.health.check(service: "authorization").rawValue == "Bearer s3cret")
            var options = CallOptions()
            options.bearerToken = "other"
            #expect(options.bearerToken == "other")
            #expect(try await client.health.check(service: "authorization", options: options).rawValue == "Bearer other")
            await client.close()

            let anonymous = try await CatalogClient.connect(port: port)
            #expect(try await anonymous.health.check(service: "authorization").rawValue == "-")
            await anonymous.close()
        }
    }

    @Test("custom metadata from the defaults and from the call both reach the server")
    func metadata() async throws {
        try await withProbeServer { port, _ in
            var configuration = CatalogClient.Configuration.defaults
            configuration.defaultCallOptions.metadata.add("x-team", "search")
            let client = try await CatalogClient.connect(port: port, configuration: configuration)
            #expect(try await client.health.check(service: "x-team").rawValue == "search")
            var options = CallOptions()
            options.metadata.add("x-request", "42")
            #expect(try await client.health.check(service: "x-request", options: options).rawValue == "42")
            #expect(try await client.health.check(service: "x-team", options: options).rawValue == "search")
            await client.close()
        }
    }

    @Test("options laid over defaults: own timeout, metadata and compression win")
    func merging() {
        var defaults = CallOptions(timeout: .seconds(5), compression: .gzip)
        defaults.bearerToken = "default"
        defaults.metadata.add("x-a", "1")
        var own = CallOptions()
        own.bearerToken = "own"
        let merged = own.merged(over: defaults)
        #expect(merged.timeout == .seconds(5))
        #expect(merged.compression == .gzip)
        #expect(merged.bearerToken == "own")
        #expect(merged.metadata["authorization"].count == 1)
        #expect(merged.metadata.first("x-a") == "1")
        #expect(CallOptions.timeout(.seconds(1)).merged(over: defaults).timeout == .seconds(1))
    }

    @Test("a call's time limit: inherited from the defaults unless it has a timeout of its own or none")
    func timeLimits() {
        let defaults = CallOptions(timeout: .seconds(5))
        #expect(CallOptions().timeLimit == .inherited)
        #expect(CallOptions().merged(over: defaults).timeLimit == .timeout(.seconds(5)))
        #expect(CallOptions.noTimeout.merged(over: defaults).timeLimit == .noTimeout)
        #expect(CallOptions.noTimeout.merged(over: defaults).timeout == nil)
        #expect(CallOptions.timeout(.seconds(1)).merged(over: defaults).timeLimit == .timeout(.seconds(1)))
        #expect(CallOptions().merged(over: .noTimeout).timeLimit == .noTimeout)
        var options = CallOptions.noTimeout
        options.timeout = .seconds(2)
        #expect(options.timeLimit == .timeout(.seconds(2)))
        options.timeout = nil
        #expect(options.timeLimit == .inherited)
    }

    @Test("a timeout ends a slow call with DEADLINE_EXCEEDED and cancels the handler")
    func deadline() async throws {
        try await withProbeServer { port, probe in
            let client = try await CatalogClient.connect(port: port)
            let started = ContinuousClock.now
            let error = try await #require(throws: RPCError.self) {
                // Long enough for the request to reach the handler on a loaded machine (a call whose
                // deadline passes before its turn never starts a handler, so none would be cancelled).
                try await client.health.check(service: "sleep", options: .timeout(.seconds(5)))
            }
            #expect(error.code == .deadlineExceeded)
            #expect(ContinuousClock.now - started < .seconds(15))
            try await eventually { probe.cancelledSleeps == 1 }
            await client.close()
        }
    }

    @Test("cancelling the calling task ends the call with CANCELLED and cancels the handler")
    func cancellation() async throws {
        try await withProbeServer { port, probe in
            let client = try await CatalogClient.connect(port: port)
            let call = Task { try await client.health.check(service: "sleep") }
            try await eventually { probe.calls(Health.check) == 1 }
            call.cancel()
            let error = try await #require(throws: RPCError.self) { try await call.value }
            #expect(error.code == .cancelled)
            try await eventually { probe.cancelledSleeps == 1 }
            #expect(probe.calls(Health.check) == 1, "a cancelled read is not retried")
            await client.close()
        }
    }

    @Test("gzip-compressed requests are served")
    func compression() async throws {
        try await withConnectedClient { client in
            let options = CallOptions(compression: .gzip)
            let created = try await client.categories.create(name: String(repeating: "Zip ", count: 10), options: options)
            #expect(try await client.categories.get(id: created.id, options: options).name == created.name)
        }
    }
}
