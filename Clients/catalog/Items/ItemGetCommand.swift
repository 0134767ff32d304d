import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog item get ID`.
struct ItemGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "Show an item.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The item's id.")
    var id: Int64

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            let item = try await client.items.get(id: id, options: session.callOptions)
            session.printer.print(try .item(item, categoryNames: try await session.categoryNames(client)))
        }
    }
}
