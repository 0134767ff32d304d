import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category import FILE [--mode merge|replace]`: a progress bar on a terminal.
struct CategoryImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Create and update categories from an export document.",
        discussion: """
            Categories are matched by slug: new ones are created, changed ones updated. --mode \
            replace also deletes the non-default categories the file does not name (their items \
            become uncategorized); on a terminal it first shows what would change and asks, --yes \
            skips the question and is required when standard input is not a terminal.

            A file of more than --batch-size categories is sent in merge batches, one transaction \
            each, with a progress bar on a terminal (running an interrupted import again is safe), \
            then, for replace, one request that deletes the categories the file does not name. \
            --batch-size 0 sends everything in one request: all or nothing. --dry-run checks the \
            whole file in one request.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The export document, or - for standard input.", valueName: "file"),
              completion: .file(extensions: ["json"]))
    var file: String

    @Option(help: "merge (default) or replace.")
    var mode: ImportMode = .merge

    @Option(help: "Categories per request; 0: all in one.")
    var batchSize = 500

    @Flag(help: "Show what would change, and change nothing.")
    var dryRun = false

    @Flag(name: [.short, .long], help: "Do not ask for confirmation (replace only).")
    var yes = false

    func validate() throws {
        guard batchSize >= 0 else { throw ValidationError("--batch-size must be 0 or more") }
    }

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        let isDestructive = mode == .replace
        let confirmation =
            isDestructive || dryRun ? try session.confirmation(dryRun: dryRun, assumeYes: yes, action: "replace the categories") : nil
        let records = try ImportFile.read(file)
        try await session.withClient { client in
            if isDestructive || dryRun {
                let go = try await session.goAhead(
                    confirmation: confirmation, assumeYes: yes,
                    preview: { try await client.categories.import(records, mode: mode, dryRun: true, options: session.callOptions) },
                    dryRunOutput: { try .sentence("Would import \(records.count) categories: \(Self.counts($0)).", message: $0) },
                    question: { "Replace the categories with the \(records.count) of \(file)? \(Self.counts($0))." })
                guard case .ahead = go else { return }
            }
            var progress = ProgressBar(console: session.console, label: "Importing", unit: "categories", total: records.count)
            let result = try await BatchedImport(records: records, mode: mode, batchSize: batchSize)
                .run(client: client, options: session.callOptions) { progress.update(completed: $0) }
            progress.finish()
            session.printer.print(try .sentence("Imported \(records.count) categories: \(Self.counts(result)).", message: result))
        }
    }

    /// `3 created, 1 updated, 10 unchanged, 0 deleted`.
    static func counts(_ response: ImportCategoriesResponse) -> String {
        "\(response.created) created, \(response.updated) updated, \(response.unchanged) unchanged, \(response.deleted) deleted"
    }
}
