import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category palette`.
struct CategoryPaletteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "palette", abstract: "Show the colours given in turn to categories created without one.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            session.printer.print(try .palette(try await client.categories.palette(options: session.callOptions)))
        }
    }
}
