import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog filter get FILTER`.
struct FilterGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "Show a filter's options and selection.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filter: FilterIDArgument

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            session.printer.print(try .filter(try await client.filters.get(filter.filterId, options: session.callOptions)))
        }
    }
}
