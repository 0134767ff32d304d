import CatalogAPI
import Foundation
import Logging
import RPCCore
import RPCHTTP2
import Testing

/// Runs a server whose `grpc.health.v1.Health/Check` answers, as its status, the
/// `authorization` header it received (`"-"` when there was none), while `body` runs with
/// its `127.0.0.1:port`: it shows which token the CLI sent.
func withTokenEchoServer<T>(_ body: (_ address: String) async throws -> T) async throws -> T {
    var router = Router()
    router.register(Health.check) { _, context in
        HealthCheckResponse(status: ServingStatus(rawValue: context.requestMetadata.first("authorization") ?? "-"))
    }
    var configuration = HTTP2ServerConfiguration.defaults
    configuration.host = "127.0.0.1"
    configuration.port = 0
    var logger = Logger(label: "test.token-echo")
    logger.logLevel = .critical
    let server = HTTP2Server(router: router, configuration: configuration, logger: logger)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        do {
            let port = try #require(try await server.listeningAddress.port)
            let result = try await body("127.0.0.1:\(port)")
            server.beginGracefulShutdown()
            try await group.waitForAll()
            return result
        } catch {
            group.cancelAll()
            throw error
        }
    }
}

/// A `127.0.0.1:port` where nothing listens (a port the kernel just handed out and took back).
func unusedAddress() throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw CLIProcessError("socket: errno \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw CLIProcessError("bind: errno \(errno)") }
    return "127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
}
