import CatalogServer
import CatalogServices
import CatalogStore
import CatalogStoreSQLite
import HTTP2TestSupport
import Logging
import RPCCore
import RPCHTTP2
import TestSupport

/// Runs the real `CatalogServerApp` (catalogd's assembly) on 127.0.0.1 while `body` runs with
/// it and the port it listens on, then shuts it down gracefully.
///
/// - `databasePath`: the SQLite file; `nil`: a fresh one, removed afterwards.
/// - `port`: 0 picks a free one.
/// - `demo`: the store holds the demo catalog from the start.
/// - `authorizer` decides who may call what (`nil`: open); `tls` serves TLS;
///   `configure` adjusts the rest of the server's configuration.
@discardableResult
package func withCatalogServerApp<T>(
    databasePath: String? = nil,
    port: Int = 0,
    demo: Bool = false,
    filterLimits: FilterHub.Limits = FilterHub.Limits(),
    authorizer: (any CallAuthorizer)? = nil,
    tls: ServerTLS? = nil,
    configure: (inout HTTP2ServerConfiguration) -> Void = { _ in },
    logger: Logger = quietLogger("test.catalog"),
    _ body: (_ app: CatalogServerApp, _ port: Int) async throws -> T
) async throws -> T {
    let fresh = databasePath == nil ? try TestDatabase() : nil
    let store = try SQLiteCatalogStore(path: databasePath ?? fresh!.path)
    if demo { _ = try await DemoCatalog.seed(into: store) }
    var configuration = HTTP2ServerConfiguration.defaults
    configuration.host = "127.0.0.1"
    configuration.port = port
    configuration.tls = tls
    // Long enough that a connection a test opens before its first call is not closed on a
    // loaded machine; the tests of that bound set their own.
    configuration.requestHeadTimeout = .seconds(120)
    configure(&configuration)
    let app = CatalogServerApp(
        configuration: configuration, logger: logger, store: store, filterLimits: filterLimits, authorizer: authorizer)
    defer { withExtendedLifetime(fresh) {} }
    return try await whileServing(app) { port in try await body(app, port) }
}
