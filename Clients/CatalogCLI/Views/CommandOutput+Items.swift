import CatalogKit

extension CommandOutput {
    /// A page of items (or every page): `{items, nextPageToken?, totalCount}`; one item per
    /// ndjson line; a table whose CATEGORY column shows names from `categoryNames`.
    package static func items(_ page: ListItemsResponse, categoryNames: [Int64: String]) throws -> CommandOutput {
        let encoder = DocumentEncoder()
        return CommandOutput(document: try encoder.encode(page), records: try page.items.map { try encoder.encode($0) }) { context in
            itemTable(page.items, categoryNames: categoryNames, wide: context.wide)
                .render(width: context.width, headers: context.headers, style: context.style)
        }
    }

    /// One item, as a one-row table.
    package static func item(_ item: Item, categoryNames: [Int64: String]) throws -> CommandOutput {
        CommandOutput(document: try DocumentEncoder().encode(item)) { context in
            itemTable([item], categoryNames: categoryNames, wide: context.wide)
                .render(width: context.width, headers: context.headers, style: context.style)
        }
    }

    private static func itemTable(_ items: [Item], categoryNames: [Int64: String], wide: Bool) -> Table {
        var columns: [Table.Column] = [
            .init("ID", alignment: .right), .init("TITLE", flexible: true), .init("LEVEL"), .init("DURATION"),
            .init("PRICE", alignment: .right), .init("CATEGORY"),
        ]
        if wide {
            columns += [.init("SUMMARY", flexible: true), .init("IMAGE URL", flexible: true), .init("CREATED"), .init("UPDATED")]
        }
        var table = Table(columns: columns)
        for item in items {
            var row = [
                Cells.id(item.id), Cells.text(item.title), Cells.text(item.level), Cells.text(item.duration),
                Cells.price(item.price), Cells.category(item.categoryId, names: categoryNames),
            ]
            if wide {
                row += [Cells.text(item.summary), Cells.text(item.imageURL), Cells.date(item.createdAt), Cells.date(item.updatedAt)]
            }
            table.append(row)
        }
        return table
    }
}
