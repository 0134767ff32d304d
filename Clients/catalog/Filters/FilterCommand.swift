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
