import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category create NAME`.
struct CategoryCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a category at the end of the order.",
        discussion: "Without --color it gets the palette colour of its position (see 'category palette')."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The name, 1 to 50 characters; its slug must be free.")
    var name: String

    @Option(help: ArgumentHelp("The colour, #RRGGBB.", valueName: "#RRGGBB"))
    var color: String?

    @Option(help: "A symbol name of a-z, 0-9 and '.', e.g. book.")
    var icon: String?

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            let category = try await client.categories.create(name: name, color: color, icon: icon, options: session.callOptions)
            session.printer.print(try .category(category))
        }
    }
}
