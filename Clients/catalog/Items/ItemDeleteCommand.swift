import ArgumentParser
import CatalogCLI
import CatalogKit
import RPCCore

/// `catalog item delete ID`: asks first on a terminal.
struct ItemDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an item.",
        discussion: """
            Shows the item and asks for confirmation on a terminal; --yes skips the question, and \
            is required when standard input is not a terminal. --dry-run shows the item that would be \
            deleted and deletes nothing.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The item's id.")
    var id: Int64

    @Flag(help: "Show what would be deleted, and delete nothing.")
    var dryRun = false

    @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
    var yes = false

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        let confirmation = try session.confirmation(dryRun: dryRun, assumeYes: yes, action: "delete item \(id)")
        try await session.withClient { client in
            let categoryNames = try await session.categoryNames(client)
            let go = try await session.goAhead(
                confirmation: confirmation, assumeYes: yes,
                preview: { try await client.items.get(id: id, options: session.callOptions) },
                dryRunOutput: { try .item($0, categoryNames: categoryNames) },
                question: { "Delete item \(id) '\($0.title)'?" })
            guard case .ahead(let item) = go else { return }
            try await client.items.delete(id: id, options: session.callOptions)
            session.printer.print(try .sentence("Deleted item \(id)\(item.map { " '\($0.title)'" } ?? "").", message: Empty()))
        }
    }
}
