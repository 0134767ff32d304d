import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog category list`.
struct CategoryListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List categories, in position order by default.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Option(name: [.short, .long], help: "Only categories whose name contains this (case-insensitive).")
    var query: String?

    @Flag(help: "Leave out categories without items.")
    var hideEmpty = false

    @Option(help: "Order by position, name, itemCount or createdAt.")
    var sort: CategorySort?

    @Flag(name: .customLong("desc"), help: "Reverse the order.")
    var descending = false

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            let categories = try await client.categories.list(
                query: query, hideEmpty: hideEmpty ? true : nil, sort: sort, descending: descending ? true : nil,
                options: session.callOptions)
            session.printer.print(try .categories(categories))
        }
    }
}
