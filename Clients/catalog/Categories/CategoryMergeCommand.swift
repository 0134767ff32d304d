import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category merge SOURCE… --into TARGET`: a dry run first, then a question on a terminal.
struct CategoryMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Move the items of categories into another one, and delete them.",
        discussion: """
            On a terminal, the server first checks the merge (a dry run), then you are asked; --yes \
            skips the question and is required when standard input is not a terminal. --dry-run \
            shows what would happen and changes nothing.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The categories to merge away: ids or names.", valueName: "source"),
              completion: .custom(Completions.categories))
    var sources: [String]

    @Option(help: ArgumentHelp("The category that receives their items.", valueName: "category"),
            completion: .custom(Completions.categories))
    var into: String

    @Flag(help: "Show what would happen, and change nothing.")
    var dryRun = false

    @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
    var yes = false

    func validate() throws {
        guard !sources.isEmpty else { throw ValidationError("name at least one category to merge") }
    }

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        let confirmation = try session.confirmation(
            dryRun: dryRun, assumeYes: yes, action: "merge \(sources.joined(separator: ", ")) into \(into)")
        try await session.withClient { client in
            var sourceIds: [Int64] = []
            for source in sources { sourceIds.append(try await session.categoryID(source, client)) }
            let target = try await session.category(into, client)
            let targetName = "'\(target.name)' (id \(target.id))"
            func merge(dryRun: Bool) async throws -> MergeCategoriesResponse {
                try await client.categories.merge(sourceIds: sourceIds, into: target.id, dryRun: dryRun, options: session.callOptions)
            }
            let go = try await session.goAhead(
                confirmation: confirmation, assumeYes: yes,
                preview: { try await merge(dryRun: true) },
                dryRunOutput: { try .sentence("Would merge into \(targetName): \(Self.effects($0, future: true)).", message: $0) },
                question: { "Merge into \(targetName)? \(Self.effects($0, future: true))." })
            guard case .ahead = go else { return }
            let result = try await merge(dryRun: false)
            session.printer.print(try .sentence("Merged into \(targetName): \(Self.effects(result, future: false)).", message: result))
        }
    }

    /// `5 items moved; categories 7, 8 deleted`.
    static func effects(_ response: MergeCategoriesResponse, future: Bool) -> String {
        let verb = future ? "would be " : ""
        let ids = response.deletedIds.map(String.init).joined(separator: ", ")
        return "\(response.movedItems) item\(response.movedItems == 1 ? "" : "s") \(verb)moved; "
            + "categor\(response.deletedIds.count == 1 ? "y" : "ies") \(ids) \(verb)deleted"
    }
}
