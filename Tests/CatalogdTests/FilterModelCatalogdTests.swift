import CatalogKit
import CatalogViewModels
import CatalogdTestSupport
import ObservationTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `FilterModel` over the network, on a real `catalogd`: it follows another client's changes,
/// shows `.reconnecting` while catalogd is gone, and is live again once catalogd is back on
/// the same port and database.
@Suite("FilterModel against catalogd")
@MainActor
struct FilterModelCatalogdTests {
    @Test("follows another client's selection, reconnects while catalogd is down, and is live again after its restart")
    func followsAcrossRestart() async throws {
        let first = try await CatalogdProcess.start(extraArguments: ["--seed-demo"])
        var second: CatalogdProcess?
        defer {
            second?.kill()
            first.kill()
        }
        var configuration = CatalogClient.Configuration.defaults
        configuration.reconnectBackoff = Backoff(initial: .milliseconds(50), maximum: .milliseconds(250))
        let client = try await CatalogClient.connect(port: first.port, configuration: configuration)
        let model = FilterModel(filters: client.filters, filterId: "categories")
        let running = Task { await model.run() }
        defer { running.cancel() }
        try await waitUntil("the model is live") { model.connection == .live }
        let option = try #require(model.options.last)

        let other = try await CatalogClient.connect(port: first.port)
        let selected = try await other.filters.select("categories", optionId: option.id)
        try await waitUntil("the model shows the other client's selection") { model.revision == selected.revision }
        #expect(model.selectedOptionId == option.id)
        await other.close()

        first.send(SIGKILL)
        _ = try await first.waitForExit()
        try await waitUntil("the model is reconnecting") {
            if case .reconnecting(let error) = model.connection { error.code == .unavailable } else { false }
        }
        #expect(model.selectedOptionId == option.id, "the state shown stays")

        second = try CatalogdProcess(
            arguments: ["--address", "127.0.0.1:\(first.port)", "--database", first.directory.appendingPathComponent("catalog.sqlite").path],
            port: first.port,
            directory: first.directory
        )
        try await second?.waitUntilReady()
        try await waitUntil("the model is live again", within: .seconds(20)) { model.connection == .live }
        #expect(model.revision == selected.revision)

        let again = try await CatalogClient.connect(port: first.port)
        let cleared = try await again.filters.select("categories", optionId: nil)
        try await waitUntil("the resumed model shows the next change") { model.revision == cleared.revision }
        #expect(model.selectedOptionId == nil)
        await again.close()

        running.cancel()
        await running.value
        await client.close()
    }
}
