import ArgumentParser

/// `catalog filter collapse FILTER`.
struct FilterCollapseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "collapse", abstract: "Show a filter collapsed.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filter: FilterIDArgument

    func run() async throws {
        try await filter.setPresentation(.collapsed, connection: connection, output: output)
    }
}
