import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category move CATEGORY --up|--down|--to POSITION`: prints the new order.
struct CategoryMoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move a category up, down or to a position.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The category: id or name.", valueName: "category"), completion: .custom(Completions.categories))
    var category: String

    @Flag(help: "One place up.")
    var up = false

    @Flag(help: "One place down.")
    var down = false

    @Option(name: .customLong("to"), help: ArgumentHelp("To this 0-based position.", valueName: "position"))
    var position: Int?

    func validate() throws {
        guard [up, down, position != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --up, --down and --to")
        }
    }

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            let id = try await session.categoryID(category, client)
            let order =
                if let position {
                    try await client.categories.move(id: id, toPosition: position, options: session.callOptions)
                } else {
                    try await client.categories.move(id: id, direction: up ? .up : .down, options: session.callOptions)
                }
            session.printer.print(try .categories(order))
        }
    }
}
