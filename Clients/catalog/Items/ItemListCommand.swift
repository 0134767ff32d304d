import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog item list`: one page of items, or every page with `--all`.
struct ItemListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List items, a page at a time.",
        discussion: "Tables note on standard error how to get the next page."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Only the items of this category (id or name).", valueName: "category"),
            completion: .custom(Completions.categories))
    var category: String?

    @Option(name: [.short, .long], help: "Only items whose title or summary contains this (case and accents ignored).")
    var query: String?

    @Option(help: "Only items of this level, e.g. Débutant.")
    var level: String?

    @Option(help: "Order by title, price or createdAt.")
    var sort: ItemSort?

    @Flag(name: .customLong("desc"), help: "Reverse the order.")
    var descending = false

    @Option(help: "Items per page, 1 to 500 (server default 50).")
    var pageSize: Int?

    @Option(help: "The page after the one that gave this token.")
    var pageToken: String?

    @Flag(help: "Follow every page.")
    var all = false

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            let categoryId = try await session.categoryID(category, client)
            var page = try await listPage(client, session, categoryId: categoryId, token: pageToken)
            while all, let next = page.nextPageToken {
                let more = try await listPage(client, session, categoryId: categoryId, token: next)
                page = ListItemsResponse(
                    items: page.items + more.items, nextPageToken: more.nextPageToken, totalCount: more.totalCount, revision: more.revision)
            }
            session.printer.print(try .items(page, categoryNames: try await session.categoryNames(client)))
            if session.isHumanOutput, let next = page.nextPageToken {
                session.note("\(page.items.count) of \(page.totalCount) items; next page: --page-token \(next) (or --all)")
            }
        }
    }

    private func listPage(_ client: CatalogClient, _ session: Session, categoryId: Int64?, token: String?) async throws -> ListItemsResponse {
        try await client.items.list(
            categoryId: categoryId, query: query, level: level, sort: sort,
            descending: descending ? true : nil, pageSize: pageSize, pageToken: token, options: session.callOptions)
    }
}
