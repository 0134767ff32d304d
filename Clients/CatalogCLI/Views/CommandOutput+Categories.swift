import CatalogAPI
import CatalogKit
import Foundation

extension CommandOutput {
    /// Categories in the order given: `{categories}`; one per ndjson line; a table.
    package static func categories(_ categories: [Category]) throws -> CommandOutput {
        let encoder = DocumentEncoder()
        return CommandOutput(
            document: try encoder.encode(CategoryList(categories: categories)),
            records: try categories.map { try encoder.encode($0) }
        ) { context in
            categoryTable(categories, wide: context.wide).render(width: context.width, headers: context.headers, style: context.style)
        }
    }

    /// One category, as a one-row table.
    package static func category(_ category: Category) throws -> CommandOutput {
        CommandOutput(document: try DocumentEncoder().encode(category)) { context in
            categoryTable([category], wide: context.wide).render(width: context.width, headers: context.headers, style: context.style)
        }
    }

    private static func categoryTable(_ categories: [Category], wide: Bool) -> Table {
        var table = Table(
            columns: wide
                ? [
                    .init("POS", alignment: .right), .init("ID", alignment: .right), .init("NAME", flexible: true),
                    .init("SLUG", flexible: true), .init("ITEMS", alignment: .right), .init("COLOR"), .init("ICON"),
                    .init("DEFAULT"), .init("REVISION", alignment: .right), .init("CREATED"), .init("UPDATED"),
                ]
                : [
                    .init("ID", alignment: .right), .init("NAME", flexible: true), .init("ITEMS", alignment: .right),
                    .init("COLOR"), .init("ICON"), .init("DEFAULT"),
                ])
        for category in categories {
            table.append(
                wide
                    ? [
                        Table.Cell(String(category.position)), Cells.id(category.id), Cells.text(category.name),
                        Cells.text(category.slug), Table.Cell(String(category.itemCount)), Cells.color(category.color),
                        Cells.text(category.icon), Cells.yesNo(category.isDefault), Table.Cell(String(category.revision)),
                        Cells.date(category.createdAt), Cells.date(category.updatedAt),
                    ]
                    : [
                        Cells.id(category.id), Cells.text(category.name), Table.Cell(String(category.itemCount)),
                        Cells.color(category.color), Cells.text(category.icon), Cells.yesNo(category.isDefault),
                    ])
        }
        return table
    }

    /// Counts, then each category's share of the items with a bar.
    package static func stats(_ stats: CategoryStats) throws -> CommandOutput {
        let encoder = DocumentEncoder()
        return CommandOutput(document: try encoder.encode(stats), records: try stats.categories.map { try encoder.encode($0) }) { context in
            var table = Table(columns: [
                .init("ID", alignment: .right), .init("NAME", flexible: true), .init("ITEMS", alignment: .right),
                .init("SHARE", alignment: .right), .init(""),
            ])
            for entry in stats.categories {
                let bar = String(repeating: "█", count: Int((entry.share * 20).rounded()))
                table.append([
                    Cells.id(entry.id), Cells.text(entry.name), Table.Cell(String(entry.itemCount)),
                    Table.Cell(String(format: "%.1f%%", entry.share * 100)), Table.Cell(bar, paint: { $0.cyan($1) }),
                ])
            }
            let summary = """
                \(stats.categoryCount) categories (\(stats.emptyCategoryCount) empty), \(stats.itemCount) items \
                (\(stats.uncategorizedItemCount) without a category)

                """
            return summary + table.render(width: context.width, headers: context.headers, style: context.style)
        }
    }

    /// The palette colours with their positions modulo 12.
    package static func palette(_ colors: [String]) throws -> CommandOutput {
        let encoder = DocumentEncoder()
        return CommandOutput(document: try encoder.encode(Palette(colors: colors)), records: colors.map { .string($0) }) { context in
            var table = Table(columns: [.init("INDEX", alignment: .right), .init("COLOR")])
            for (index, color) in colors.enumerated() { table.append([Table.Cell(String(index)), Cells.color(color)]) }
            return table.render(width: context.width, headers: context.headers, style: context.style)
        }
    }

    /// An export document: the same JSON for people and programs (it is meant for a file).
    package static func export(_ export: CategoryExport) throws -> CommandOutput {
        let document = try DocumentEncoder().encode(export)
        return CommandOutput(document: document) { _ in document.prettyJSON + "\n" }
    }
}
