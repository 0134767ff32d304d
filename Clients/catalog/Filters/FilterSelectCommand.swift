import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog filter select FILTER (OPTION | --all) [--toggle]`.
struct FilterSelectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "select", abstract: "Select an option of a filter, or all.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filter: FilterIDArgument

    @Argument(help: ArgumentHelp("The option: its id or title.", valueName: "option"))
    var option: String?

    @Flag(help: "Select all (clear the selection).")
    var all = false

    @Flag(help: "Clear the selection instead when the option is already selected.")
    var toggle = false

    func validate() throws {
        guard (option != nil) != all else { throw ValidationError("give an option or --all") }
    }

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            var optionId: Int64?
            if let option { optionId = try await optionID(option, client: client, session: session) }
            let state = try await client.filters.select(filter.filterId, optionId: optionId, toggle: toggle, options: session.callOptions)
            session.printer.print(try .filter(state))
        }
    }

    /// The id of the option `text` names: an id as it is, a title looked up (case-insensitive).
    private func optionID(_ text: String, client: CatalogClient, session: Session) async throws -> Int64 {
        if let id = Int64(text) { return id }
        let state = try await client.filters.get(filter.filterId, options: session.callOptions)
        guard let option = state.options.first(where: { $0.title.lowercased() == text.lowercased() }) else {
            throw RPCError(
                .notFound, "filter '\(filter.filterId)' has no option titled '\(text)'",
                detail: ErrorDetail(reason: "unknownOption", details: ["title": .string(text)]))
        }
        return option.id
    }
}
