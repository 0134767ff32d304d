import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category move-items --from CATEGORY --to CATEGORY`.
struct CategoryMoveItemsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move-items", abstract: "Move every item of a category into another.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("The category the items leave: id or name.", valueName: "category"),
            completion: .custom(Completions.categories))
    var from: String

    @Option(help: ArgumentHelp("The category they go to: id or name.", valueName: "category"),
            completion: .custom(Completions.categories))
    var to: String

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            let source = try await session.category(from, client)
            let destination = try await session.category(to, client)
            let result = try await client.categories.moveItems(from: source.id, to: destination.id, options: session.callOptions)
            session.printer.print(
                try .sentence(
                    "Moved \(result.moved) item\(result.moved == 1 ? "" : "s") from '\(source.name)' to '\(destination.name)'.",
                    message: result))
        }
    }
}
