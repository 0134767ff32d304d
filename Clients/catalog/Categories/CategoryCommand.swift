import ArgumentParser

/// `catalog category …`: `catalog.v1.Categories`.
struct CategoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "category",
        abstract: "Manage categories and the items in them.",
        discussion: "A category is named by its id or by its name (case-insensitive) or slug.",
        subcommands: [
            CategoryListCommand.self, CategoryGetCommand.self, CategoryCreateCommand.self, CategoryUpdateCommand.self, CategoryDeleteCommand.self,
            CategoryMoveCommand.self, CategoryMergeCommand.self, CategoryAssignCommand.self, CategoryMoveItemsCommand.self, CategoryStatsCommand.self,
            CategoryPaletteCommand.self, CategoryExportCommand.self, CategoryImportCommand.self,
        ]
    )
}
