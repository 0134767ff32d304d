import CatalogServices
import CatalogStore
import CatalogStoreSQLite
import Foundation
import Logging
import NIOCore
import NIOEmbedded
import RPCCore
import RPCHTTP2

/// The whole server connection under fuzzing: a client's bytes go through the real nghttp2
/// session and `catalogd`'s connection handler and router (every service, over an SQLite
/// store in a temporary directory) in memory, on an `EmbeddedChannel`. Inline calls are
/// answered; calls that would run in a task are refused (RST_STREAM REFUSED_STREAM).
///
/// Promises checked for every input: no crash, and an answer that is valid HTTP/2 and valid in
/// the protocol of its content type, gRPC, gRPC-Web or Connect (`ServerOutputCheck`);
/// libFuzzer's `-rss_limit_mb` and `-malloc_limit_mb` bound memory, and its leak detection
/// finds what a connection leaves behind.
public enum ConnectionFuzzTarget {
    /// The server's settings: the defaults with timeouts short enough for the fuzzer's clock.
    static let configuration: HTTP2ServerConfiguration = {
        var configuration = HTTP2ServerConfiguration.defaults
        configuration.maxBufferedBytesPerConnection = 256 * 1024
        configuration.requestBodyTimeout = .seconds(1)
        configuration.sendStallTimeout = .seconds(1)
        return configuration
    }()

    /// The client's connection preface: prepended to inputs whose first byte is even, so that
    /// the fuzzer spends its time past it.
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// The store, filters and router of `catalogd`, made once per process.
    static let served: (router: Router, store: SQLiteCatalogStore, filters: FilterHub) = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-connection-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard let store = try? SQLiteCatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path) else {
            fatalError("cannot make the fuzzer's store in \(directory.path)")
        }
        let filters = FilterHub()
        let router = Router.catalog(
            store: store, health: HealthService(services: HealthService.catalogServiceNames), filters: filters)
        return (router, store, filters)
    }()

    /// Loads the filters into the hub (as `catalogd` does before it serves); call once before `run`.
    public static func prepare() async throws {
        try await served.filters.load(from: served.store)
    }

    static let logger = Logger(label: "fuzz.connection", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Serves `input` on a new connection: the first byte chooses whether the preface is
    /// prepended (even) and how the rest is cut into reads; after the reads, the clock moves
    /// past every timeout, then the client leaves.
    public static func run(_ input: [UInt8]) throws(FuzzFailure) {
        guard let first = input.first else { return }
        let bytes = (first % 2 == 0 ? preface : []) + input.dropFirst()
        let handler = HTTP2Server.connectionHandler(router: served.router, configuration: configuration, logger: logger)
        let output = try EmbeddedConnection.serve(bytes, to: handler, first: first)
        try ServerOutputCheck.check(output)
    }
}
