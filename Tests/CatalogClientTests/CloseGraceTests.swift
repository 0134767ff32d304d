import CatalogAPI
import CatalogKit
import HTTP2TestSupport
import RPCCore
import RPCHTTP2
import Testing
import TestSupport

/// `CatalogClient.close(gracePeriod:)` with a unary call that never ends on its own: a server
/// whose `Categories/Get` handler waits until it is cancelled.
@Suite("CatalogClient.close(gracePeriod:)", .timeLimit(.minutes(1)))
struct CloseGraceTests {
    @Test("a unary call still open when the grace period ends fails with CANCELLED, and the server's handler is cancelled")
    func graceEnds() async throws {
        let (events, recorder) = AsyncStream.makeStream(of: String.self)
        var router = Router()
        router.register(CategoriesService.get, .unary { _, _ in
            recorder.yield("started")
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                recorder.yield("cancelled")
                throw error
            }
            throw RPCError(.internalError, "the handler slept an hour")
        })
        var configuration = HTTP2ServerConfiguration.defaults
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = HTTP2Server(router: router, configuration: configuration, logger: quietLogger())
        try await whileServing(server) { port in
            var seen = events.makeAsyncIterator()
            let client = try await CatalogClient.connect(port: port)
            let call = Task { try await client.categories.get(id: 1) }
            #expect(await seen.next() == "started")

            await client.close(gracePeriod: .milliseconds(50))
            let error = await #expect(throws: RPCError.self) { try await call.value }
            #expect(error?.code == .cancelled && error?.message == "the client was closed")
            #expect(await seen.next() == "cancelled")
        }
    }
}
