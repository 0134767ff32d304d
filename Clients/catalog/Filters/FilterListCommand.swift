import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog filter list`.
struct FilterListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List every filter with its selection.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            session.printer.print(try .filters(try await client.filters.list(options: session.callOptions)))
        }
    }
}
