import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog item update ID [fields] [--clear field…]`.
struct ItemUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change some fields of an item.",
        discussion: "Fields not given keep their value; --clear removes an optional one."
    )

    /// The optional fields `--clear` can remove.
    enum ClearableField: String, CaseIterable, ExpressibleByArgument {
        case summary, level, duration, price
        case imageURL = "image-url"
        case category
    }

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The item's id.")
    var id: Int64

    @Option(help: "A new title.")
    var title: String?

    @OptionGroup var fields: ItemFields

    @Option(name: .customLong("clear"), help: "Remove this field (repeatable).")
    var cleared: [ClearableField] = []

    func validate() throws {
        let set: [ClearableField: Bool] = [
            .summary: fields.summary != nil, .level: fields.level != nil, .duration: fields.duration != nil,
            .price: fields.price != nil, .imageURL: fields.imageURL != nil, .category: fields.category != nil,
        ]
        if let both = cleared.first(where: { set[$0] == true }) {
            throw ValidationError("--\(both.rawValue) and --clear \(both.rawValue) cannot go together")
        }
    }

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        let price = try fields.money()
        try await session.withClient { client in
            let categoryId = try await session.categoryID(fields.category, client)
            let item = try await client.items.update(
                id: id, title: title, summary: update(.summary, fields.summary), level: update(.level, fields.level),
                duration: update(.duration, fields.duration), price: update(.price, price),
                imageURL: update(.imageURL, fields.imageURL), categoryId: update(.category, categoryId),
                options: session.callOptions)
            session.printer.print(try .item(item, categoryNames: try await session.categoryNames(client)))
        }
    }

    private func update<Value>(_ field: ClearableField, _ value: Value?) -> FieldUpdate<Value> {
        if let value { return .set(value) }
        return cleared.contains(field) ? .clear : .unchanged
    }
}
