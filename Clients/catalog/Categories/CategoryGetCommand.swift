import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category get CATEGORY`.
struct CategoryGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "get", abstract: "Show a category.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The category: id or name.", valueName: "category"), completion: .custom(Completions.categories))
    var category: String

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            session.printer.print(try .category(try await session.category(category, client)))
        }
    }
}
