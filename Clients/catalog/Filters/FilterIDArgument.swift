import ArgumentParser
import CatalogCLI
import CatalogKit

/// The filter id argument of the filter commands, completed from the server.
struct FilterIDArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The filter's id, e.g. categories.", valueName: "filter"), completion: .custom(Completions.filters))
    var filterId: String

    /// Sets the filter's presentation (flips it when `nil`) and prints the new state.
    func setPresentation(_ presentation: FilterPresentation?, connection: ConnectionOptions, output: OutputOptions) async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            let state =
                if let presentation {
                    try await client.filters.setPresentation(filterId, to: presentation, options: session.callOptions)
                } else {
                    try await client.filters.togglePresentation(filterId, options: session.callOptions)
                }
            session.printer.print(try .filter(state))
        }
    }
}
