import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category stats`.
struct CategoryStatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Count categories and items, with each category's share.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            session.printer.print(try .stats(try await client.categories.stats(options: session.callOptions)))
        }
    }
}
