import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog filter define FILTER --title T (--option ID:TITLE[:ICON]… | --source categories)`.
struct FilterDefineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "define",
        abstract: "Create a filter, or replace its title, options or source.",
        discussion: "A filter has either fixed options (--option, repeatable) or a source that its options mirror."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("The filter's id: a-z, 0-9, '.', '_', '-'.", valueName: "filter"))
    var filterId: String

    @Option(help: "The title shown above the options.")
    var title: String

    @Option(name: .customLong("option"), help: ArgumentHelp("An option, ID:TITLE or ID:TITLE:ICON (repeatable).", valueName: "option"))
    var options: [String] = []

    @Option(help: "Mirror a source instead: categories.")
    var source: FilterSource?

    func validate() throws {
        if source != nil && !options.isEmpty { throw ValidationError("give --option or --source, not both") }
    }

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        let parsed = try options.map { text throws(CLIFailure) in try FilterOptionArgument.parse(text) }
        try await session.withClient { client in
            let state = try await client.filters.define(
                filterId, title: title, options: source == nil ? parsed : nil, source: source,
                callOptions: session.callOptions)
            session.printer.print(try .filter(state))
        }
    }
}
