import ArgumentParser

/// `catalog api …`: the contract as the server describes it (catalog.v1.Reflection/Describe).
struct APICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api",
        abstract: "List and describe the server's methods (from catalog.v1.Reflection).",
        subcommands: [APIListCommand.self, APIDescribeCommand.self]
    )
}
