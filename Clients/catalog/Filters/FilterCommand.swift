import ArgumentParser

/// `catalog filter …`: `catalog.v1.Filters`.
struct FilterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Show, define, select and watch shared filters.",
        subcommands: [
            FilterListCommand.self, FilterGetCommand.self, FilterDefineCommand.self, FilterSelectCommand.self,
            FilterCollapseCommand.self, FilterExpandCommand.self, FilterToggleCommand.self, FilterWatchCommand.self,
        ]
    )
}

/// The filter id argument of the filter commands, completed from the server.
struct FilterIDArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The filter's id, e.g. categories.", valueName: "filter"), completion: .custom(Completions.filters))
    var filterId: String
}
