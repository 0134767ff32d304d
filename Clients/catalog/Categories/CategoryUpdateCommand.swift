import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category update CATEGORY [--name] [--color] [--icon] [--default|--no-default]`.
struct CategoryUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "update", abstract: "Change a category's name, colour, icon or default flag.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The category: id or name.", valueName: "category"), completion: .custom(Completions.categories))
    var category: String

    @Option(help: "A new name.")
    var name: String?

    @Option(help: ArgumentHelp("A new colour, #RRGGBB.", valueName: "#RRGGBB"))
    var color: String?

    @Option(help: "A new icon.")
    var icon: String?

    @Flag(name: .customLong("default"), inversion: .prefixedNo, help: "Make it a default category, or not.")
    var isDefault: Bool?

    @Option(help: "Only if the category is still at this revision (else ABORTED).")
    var expectedRevision: Int64?

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            let id = try await session.categoryID(category, client)
            let updated = try await client.categories.update(
                id: id, name: name, color: color, icon: icon, isDefault: isDefault, expectedRevision: expectedRevision,
                options: session.callOptions)
            session.printer.print(try .category(updated))
        }
    }
}
