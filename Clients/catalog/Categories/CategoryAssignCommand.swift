import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category assign ITEM… --to CATEGORY | --unassign`.
struct CategoryAssignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract: "Put items into a category, or take them out of theirs.",
        discussion: "Nothing changes when one of the ids is missing (NOT_FOUND names it)."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The items' ids.", valueName: "item-id"))
    var itemIds: [Int64]

    @Option(help: ArgumentHelp("The category: id or name.", valueName: "category"), completion: .custom(Completions.categories))
    var to: String?

    @Flag(help: "Take the items out of any category.")
    var unassign = false

    @Flag(help: "Show how many items would change, and change nothing.")
    var dryRun = false

    func validate() throws {
        guard !itemIds.isEmpty else { throw ValidationError("name at least one item") }
        guard (to != nil) != unassign else { throw ValidationError("give exactly one of --to and --unassign") }
    }

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            var category: Category?
            if let to { category = try await session.category(to, client) }
            let result = try await client.categories.assignItems(itemIds, to: category?.id, dryRun: dryRun, options: session.callOptions)
            let count = "\(result.updated) item\(result.updated == 1 ? "" : "s")"
            let destination = category.map { "assigned to '\($0.name)' (id \($0.id))" } ?? "unassigned"
            session.printer.print(try .sentence(dryRun ? "Would have \(count) \(destination)." : "\(count) \(destination).", message: result))
        }
    }
}
