@_exported import struct CatalogAPI.MethodRole
import CatalogKit
import CatalogServices
import CatalogStore
import CatalogStoreSQLite
import Foundation
import RPCCore
import RPCInProcess

/// The catalog's real services, in this process, on a throwaway SQLite store: for tests of
/// code that calls `catalogd`, with no server to start and no socket.
///
/// Its clients are `CatalogClient`s like any other, over an `InProcessTransport`: the same
/// typed calls, the same errors (codes, messages, reasons, fields, details), deadlines,
/// and Watch streams with the same events (a snapshot, `synced`, a change for each write of
/// any client, resumes from a revision).
///
/// ```swift
/// let catalog = try await InProcessCatalog.start(seedDemo: true)
/// let categories = try await catalog.client.categories.list()   // as the app code under test calls it
/// await catalog.close()
/// ```
public final class InProcessCatalog: Sendable {
    /// A client of these services.
    public let client: CatalogClient
    private let router: Router
    private let filters: FilterHub
    private let heartbeats: Task<Void, Never>
    private let directory: URL

    private init(client: CatalogClient, router: Router, filters: FilterHub, heartbeats: Task<Void, Never>, directory: URL) {
        self.client = client
        self.router = router
        self.filters = filters
        self.heartbeats = heartbeats
        self.directory = directory
    }

    /// Starts the services on a new store in a temporary directory: the default categories
    /// and filter, and with `seedDemo` the demo catalog's items (French training courses).
    ///
    /// - Parameter tokens: bearer tokens with their roles, as a token file gives them to
    ///   `catalogd`; none (the default) serves anyone. With tokens, ``client`` sends none: make
    ///   clients with ``newClient(bearerToken:)``.
    public static func start(seedDemo: Bool = false, tokens: [(name: String, role: MethodRole, token: String)] = []) async throws
        -> InProcessCatalog
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-in-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let store = try SQLiteCatalogStore(path: directory.appendingPathComponent("catalog.sqlite").path)
            if seedDemo { _ = try await DemoCatalog.seed(into: store) }
            let authorizer = tokens.isEmpty ? nil : TokenAuthorizer(tokens: TokenSet(hashing: tokens))
            let filters = FilterHub(authorizer: authorizer)
            try await filters.load(from: store)
            var router = Router.catalog(store: store, health: HealthService(services: HealthService.catalogServiceNames), filters: filters)
            router.authorizer = authorizer
            let heartbeats = Task { await filters.runHeartbeats() }
            return InProcessCatalog(
                client: CatalogClient(transport: InProcessTransport(router: router)), router: router, filters: filters,
                heartbeats: heartbeats, directory: directory)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Another client of the same services, e.g. a second app or the CLI of a test's story.
    ///
    /// - Parameters:
    ///   - bearerToken: A token sent with every call unless a call's options carry another.
    ///   - configuration: Default call options, retries, a token provider.
    public func newClient(bearerToken: String? = nil, configuration: CatalogClient.Configuration = .defaults) -> CatalogClient {
        CatalogClient(transport: InProcessTransport(router: router), bearerToken: bearerToken, configuration: configuration)
    }

    /// Ends every Watch (UNAVAILABLE, as a server shutting down does) and removes the store.
    public func close() async {
        filters.shutDown()
        heartbeats.cancel()
        await heartbeats.value
        try? FileManager.default.removeItem(at: directory)
    }
}
