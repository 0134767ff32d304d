import ArgumentParser

/// `catalog item …`: the items of `catalog.v1.Catalog`.
struct ItemCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "item",
        abstract: "List, show, create, change and delete items.",
        subcommands: [
            ItemListCommand.self, ItemGetCommand.self, ItemCreateCommand.self, ItemUpdateCommand.self, ItemDeleteCommand.self,
            ItemImportCommand.self,
        ]
    )
}
