import CatalogAPI
import CatalogKit
import CatalogdTestSupport
import Foundation
import RPCCore
import RPCURLSession
import Synchronization
import TestSupport
import Testing

/// A client interceptor sees a stream to its end, and the same end on every transport: over
/// nghttp2 (gRPC over HTTP/2) and over URLSession (Connect over HTTP/1.1), against a real
/// catalogd, and in-process.
@Suite("Client interceptors see streams to their end, alike on every transport")
struct StreamInterceptionTests {
    enum Transport: String, CaseIterable, Sendable {
        case nghttp2, urlSession

        func client(port: Int, interceptors: [any ClientInterceptor]) async throws -> CatalogClient {
            var configuration = CatalogClient.Configuration.defaults
            configuration.interceptors = interceptors
            configuration.reconnectBackoff = Backoff(initial: .milliseconds(20), maximum: .milliseconds(20))
            switch self {
            case .nghttp2:
                return CatalogClient(lazilyConnectingTo: [CatalogClient.Endpoint(host: "127.0.0.1", port: port)], configuration: configuration)
            case .urlSession:
                let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
                return CatalogClient(transport: URLSessionTransport(baseURL: url, errorDetailNames: .catalog), configuration: configuration)
            }
        }
    }

    /// Records each call's end: the method and the code `next` ended with, once it ended.
    final class Ends: ClientInterceptor {
        let ends = Mutex<[String]>([])
        let opened = Mutex<[String]>([])

        func intercept<Output: Sendable>(
            _ call: ClientCallContext, next: (ClientCallContext) async throws(RPCError) -> Output
        ) async throws(RPCError) -> Output {
            opened.withLock { $0.append(call.method.method) }
            do {
                let output = try await next(call)
                ends.withLock { $0.append("\(call.method.method) OK") }
                return output
            } catch {
                ends.withLock { $0.append("\(call.method.method) \(error.code.name)") }
                throw error
            }
        }
    }

    @Test("a Watch of a filter that does not exist ends NOT_FOUND at the interceptor; a cancelled one CANCELLED", arguments: Transport.allCases)
    func watchEnds(transport: Transport) async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        let ends = Ends()
        let client = try await transport.client(port: catalogd.port, interceptors: [ends])

        let missing = await #expect(throws: RPCError.self) {
            for try await _ in client.filters.watch("no-such-filter") {}
        }
        #expect(missing?.code == .notFound)
        #expect(ends.ends.withLock { $0 } == ["Watch NOT_FOUND"])

        let (events, input) = AsyncStream.makeStream(of: FilterEvent.self)
        let watching = Task { for try await event in client.filters.watch("categories") { input.yield(event) } }
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.kind == .snapshot)
        #expect(ends.ends.withLock { $0 } == ["Watch NOT_FOUND"], "an open stream has not ended")
        watching.cancel()
        _ = await watching.result
        try await eventually("the cancelled Watch's end") { ends.ends.withLock { $0.count } == 2 }
        #expect(ends.ends.withLock { $0 }.last == "Watch CANCELLED")
        await client.close()
    }

    @Test("a stream whose server is gone ends UNAVAILABLE at the interceptor on every transport", arguments: Transport.allCases)
    func serverGone(transport: Transport) async throws {
        let catalogd = try await CatalogdProcess.start()
        let port = catalogd.port
        catalogd.kill()
        let ends = Ends()
        let client = try await transport.client(port: port, interceptors: [ends])
        let raw = await #expect(throws: RPCError.self) {
            for try await _ in try await client.raw.call("grpc.health.v1.Health/Watch", request: []) {}
        }
        #expect(raw?.code == .unavailable, "\(String(describing: raw))")
        #expect(ends.ends.withLock { $0 } == ["Watch UNAVAILABLE"])
        await client.close()
    }
}
