import ArgumentParser
import CatalogCLI
import CatalogClient

/// `catalog filter collapse FILTER`.
struct FilterCollapseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "collapse", abstract: "Show a filter collapsed.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filter: FilterIDArgument

    func run() async throws {
        try await setPresentation(.collapsed, of: filter, connection: connection, output: output)
    }
}

/// `catalog filter expand FILTER`.
struct FilterExpandCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "expand", abstract: "Show a filter expanded.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filter: FilterIDArgument

    func run() async throws {
        try await setPresentation(.expanded, of: filter, connection: connection, output: output)
    }
}

/// `catalog filter toggle FILTER`.
struct FilterToggleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "toggle", abstract: "Flip a filter between expanded and collapsed.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filter: FilterIDArgument

    func run() async throws {
        try await setPresentation(nil, of: filter, connection: connection, output: output)
    }
}

/// Sets the presentation (flips it when `nil`) and prints the new state.
private func setPresentation(
    _ presentation: FilterPresentation?,
    of filter: FilterIDArgument,
    connection: ConnectionOptions,
    output: OutputOptions
) async throws {
    let session = try Session(connection: connection, output: output)
    try await session.withClient { client in
        let state =
            if let presentation {
                try await client.filters.setPresentation(filter.filterId, to: presentation, options: session.callOptions)
            } else {
                try await client.filters.togglePresentation(filter.filterId, options: session.callOptions)
            }
        session.printer.print(try .filter(state))
    }
}
