import Greeter
import Logging
import RPCCore
import RPCHTTP2
import Testing

@Suite("Greeter over HTTP/2")
struct GreeterTests {
    /// The server of the article, on a free port of the loopback interface.
    static func makeServer() -> HTTP2Server {
        var configuration = HTTP2ServerConfiguration.defaults
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.errorDetailNames = Greeter.errorDetailNames
        let server = HTTP2Server(router: Greeter.router(), configuration: configuration, logger: Logger(label: "greeter"))
        return server
    }

    @Test("a greeting, and an error whose detail comes back under the service's own names")
    func greetAndFail() async throws {
        let server = Self.makeServer()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            let port = try #require(try await server.listeningAddress.port)

            var configuration = HTTP2ClientConfiguration.defaults
            configuration.errorDetailNames = Greeter.errorDetailNames
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: configuration)
            let client = RPCClient(transport: connection)
            let answer = try await client.unary(Greeter.greet, GreetRequest(name: "Ada"))
            #expect(answer.greeting == "Hello, Ada!")

            do {
                _ = try await client.unary(Greeter.greet, GreetRequest(name: ""))
                Issue.record("an empty name was greeted")
            } catch let error as RPCError {
                #expect(error.code == .invalidArgument)
                #expect(error.detail?.field == "name")
            }

            await connection.close()
            server.beginGracefulShutdown()
            try await group.waitForAll()
        }
    }

    @Test("a client that reads other names gets the status, and the detail's trailer only as metadata")
    func otherNames() async throws {
        let server = Self.makeServer()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            let port = try #require(try await server.listeningAddress.port)
            let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port)
            let client = RPCClient(transport: connection)

            let error = await #expect(throws: RPCError.self) { try await client.unary(Greeter.greet, GreetRequest(name: "")) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.detail == nil)
            #expect(error?.metadata["acme-error-bin"].count == 1)

            await connection.close()
            server.beginGracefulShutdown()
            try await group.waitForAll()
        }
    }
}
