import ArgumentParser

/// `catalog filter expand FILTER`.
struct FilterExpandCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "expand", abstract: "Show a filter expanded.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filter: FilterIDArgument

    func run() async throws {
        try await filter.setPresentation(.expanded, connection: connection, output: output)
    }
}
