import ArgumentParser

/// `catalog filter toggle FILTER`.
struct FilterToggleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "toggle", abstract: "Flip a filter between expanded and collapsed.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filter: FilterIDArgument

    func run() async throws {
        try await filter.setPresentation(nil, connection: connection, output: output)
    }
}
