import HTTP2TestSupport
import Logging
import NIOCore
import RPCCore
import RPCHTTP2
import TestSupport

/// A running server on a free loopback port for the duration of `body`.
struct TestServer {
    let port: Int
    let server: HTTP2Server
    let probe: EchoProbe

    /// A new connection to this server.
    func connect(_ configuration: HTTP2ClientConfiguration = .defaults) async throws -> HTTP2ClientConnection {
        try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: configuration)
    }

    /// Health-checks the server over a fresh connection: proof that it still serves others.
    func servesAnotherConnection() async throws -> Bool {
        let connection = try await connect()
        let reply = try? await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "other"))
        await connection.close()
        return reply?.text == "other"
    }
}

/// Runs a server with the Echo service while `body` runs, then shuts it down; `authorizer`,
/// `interceptors` and `codecs` go on the router, and `logger` (quiet by default) is the server's.
func withTestServer<T>(
    configure: (inout HTTP2ServerConfiguration) -> Void = { _ in },
    authorizer: (any CallAuthorizer)? = nil,
    interceptors: [any ServerInterceptor] = [],
    codecs: [any MessageCodec] = [],
    logger: Logger = quietLogger(),
    _ body: (TestServer) async throws -> T
) async throws -> T {
    var configuration = HTTP2ServerConfiguration.defaults
    configuration.port = 0
    // Long enough that a raw connection a test holds before its first request head is not closed
    // on a loaded machine; the tests of that bound set their own.
    configuration.requestHeadTimeout = .seconds(120)
    configure(&configuration)
    let probe = EchoProbe()
    var router = Router()
    router.register(EchoService(probe: probe))
    router.readOnlyPaths = [Echo.quick.descriptor.path]
    router.authorizer = authorizer
    router.interceptors = interceptors
    router.additionalCodecs = codecs
    let server = HTTP2Server(router: router, configuration: configuration, logger: logger)
    return try await whileServing(server) { port in try await body(TestServer(port: port, server: server, probe: probe)) }
}
