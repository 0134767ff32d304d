import RPCCore
import RPCHTTP2
import Testing

/// `HTTP2ClientConnection.close(gracePeriod:error:)`: open calls get the grace period to
/// finish, then end with the error given, their streams reset.
@Suite("Client close with a grace period", .timeLimit(.minutes(1)))
struct ClientCloseGraceTests {
    @Test("a call still open when the grace period ends fails with the error given, and the server's handler is cancelled")
    func graceEnds() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let call = Task { try await client.unary(Echo.hang, EchoRequest(text: "open")) }
            #expect(await server.probe.next { $0 == .started("open") } != nil)

            await connection.close(gracePeriod: .milliseconds(50), error: RPCError(.cancelled, "closing for the test"))
            let error = await #expect(throws: RPCError.self) { try await call.value }
            #expect(error?.code == .cancelled && error?.message == "closing for the test")
            #expect(await server.probe.next { $0 == .cancelled("open") } != nil)
            #expect(try await server.servesAnotherConnection())
        }
    }

    @Test("a call that finishes within the grace period gets its answer")
    func callFinishesWithinGrace() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let client = RPCClient(transport: connection)
            let call = Task { try await client.unary(Echo.get, EchoRequest(text: "slow", sleepMs: 200)) }
            #expect(await server.probe.next { $0 == .started("slow") } != nil)

            await connection.close(gracePeriod: .seconds(30))
            #expect(try await call.value == EchoResponse(text: "slow"))
        }
    }
}
