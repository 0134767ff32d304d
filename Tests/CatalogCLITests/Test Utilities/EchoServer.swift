import CatalogAPI
import ChildProcess
import Foundation
import HTTP2TestSupport
import RPCCore
import RPCHTTP2
import TestSupport

/// Runs a server whose `grpc.health.v1.Health/Check` answers, as its status, the
/// `authorization` header it received (`"-"` when there was none), while `body` runs with
/// its `127.0.0.1:port`: it shows which token the CLI sent.
func withTokenEchoServer<T>(_ body: (_ address: String) async throws -> T) async throws -> T {
    var router = Router()
    router.register(Health.check, .unary { _, context in
        HealthCheckResponse(status: ServingStatus(rawValue: context.requestMetadata.first("authorization") ?? "-"))
    })
    return try await withServer(router, body)
}

/// Runs a quiet server for `router` on a free loopback port while `body` runs with its
/// `127.0.0.1:port`, then shuts it down.
func withServer<T>(_ router: Router, _ body: (_ address: String) async throws -> T) async throws -> T {
    var configuration = HTTP2ServerConfiguration.defaults
    configuration.errorDetailNames = .catalog  // as catalogd's
    configuration.host = "127.0.0.1"
    configuration.port = 0
    let server = HTTP2Server(router: router, configuration: configuration, logger: quietLogger())
    return try await whileServing(server) { port in try await body("127.0.0.1:\(port)") }
}

/// A `127.0.0.1:port` where nothing listens (a port the kernel just handed out and took back).
func unusedAddress() throws -> String {
    "127.0.0.1:\(try freeLoopbackPort())"
}
