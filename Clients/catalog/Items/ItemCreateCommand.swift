import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog item create TITLE [fields]`.
struct ItemCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Create an item.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The item's title.")
    var title: String

    @OptionGroup var fields: ItemFields

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        let price = try fields.money()
        try await session.withClient { client in
            let categoryId = try await session.categoryID(fields.category, client)
            let item = try await client.items.create(
                title: title, summary: fields.summary, level: fields.level, duration: fields.duration, price: price,
                imageURL: fields.imageURL, categoryId: categoryId, options: session.callOptions)
            session.printer.print(try .item(item, categoryNames: try await session.categoryNames(client)))
        }
    }
}
