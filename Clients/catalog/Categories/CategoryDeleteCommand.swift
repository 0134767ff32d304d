import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category delete CATEGORY`: a dry run first, then a question on a terminal.
struct CategoryDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a category.",
        discussion: """
            A category that holds items is refused unless --items says what becomes of them. On a \
            terminal, the server first checks the delete (a dry run), then you are asked; --yes \
            skips the question and is required when standard input is not a terminal. --dry-run \
            shows what would happen and changes nothing.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The category: id or name.", valueName: "category"), completion: .custom(Completions.categories))
    var category: String

    @Option(help: "What becomes of its items: reject (default), delete, move or unassign.")
    var items: DeleteItemsPolicy?

    @Option(
        help: ArgumentHelp("Move its items to this category (implies --items move).", valueName: "category"),
        completion: .custom(Completions.categories))
    var moveTo: String?

    @Option(help: "Only if the category is still at this revision (else ABORTED).")
    var expectedRevision: Int64?

    @Flag(help: "Show what would happen, and change nothing.")
    var dryRun = false

    @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
    var yes = false

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        let confirmation = try session.confirmation(dryRun: dryRun, assumeYes: yes, action: "delete category \(category)")
        let policy = items ?? (moveTo == nil ? nil : .move)
        try await session.withClient { client in
            let target = try await session.category(category, client)
            let moveToId = try await session.categoryID(moveTo, client)
            let name = "category '\(target.name)' (id \(target.id))"
            func delete(dryRun: Bool, expectedRevision: Int64?) async throws -> DeleteCategoryResponse {
                try await client.categories.delete(
                    id: target.id, items: policy, moveTo: moveToId, expectedRevision: expectedRevision, dryRun: dryRun,
                    options: session.callOptions)
            }
            let go = try await session.goAhead(
                confirmation: confirmation, assumeYes: yes,
                preview: { try await delete(dryRun: true, expectedRevision: expectedRevision) },
                dryRunOutput: { try .sentence("Would delete \(name)\(Self.itemEffects($0, future: true)).", message: $0) },
                question: { "Delete \(name)\(Self.itemEffects($0, future: true))?" })
            guard case .ahead(let confirmedPreview) = go else { return }
            // After a question, delete what was shown, not something changed since.
            let result = try await delete(
                dryRun: false, expectedRevision: expectedRevision ?? (confirmedPreview == nil ? nil : target.revision))
            session.printer.print(try .sentence("Deleted \(name)\(Self.itemEffects(result, future: false)).", message: result))
        }
    }

    /// `; 3 items unassigned` (or `would be unassigned`); empty when no item is affected.
    static func itemEffects(_ response: DeleteCategoryResponse, future: Bool) -> String {
        let verb = future ? "would be " : ""
        let effects = [
            (response.deletedItems, "deleted"), (response.movedItems, "moved"), (response.unassignedItems, "unassigned"),
        ].filter { $0.0 > 0 }.map { "\($0.0) item\($0.0 == 1 ? "" : "s") \(verb)\($0.1)" }
        return effects.isEmpty ? "" : "; " + effects.joined(separator: ", ")
    }
}
