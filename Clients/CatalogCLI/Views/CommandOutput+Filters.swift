import CatalogAPI
import CatalogKit

extension CommandOutput {
    /// Every filter: `{filters}`; one per ndjson line; a table.
    package static func filters(_ filters: [FilterState]) throws -> CommandOutput {
        let encoder = DocumentEncoder()
        return CommandOutput(document: try encoder.encode(FilterList(filters: filters)), records: try filters.map { try encoder.encode($0) }) {
            context in
            var columns: [Table.Column] = [
                .init("ID"), .init("TITLE", flexible: true), .init("SELECTED", flexible: true), .init("PRESENTATION"),
                .init("OPTIONS", alignment: .right), .init("REVISION", alignment: .right),
            ]
            if context.wide { columns += [.init("SOURCE"), .init("UPDATED")] }
            var table = Table(columns: columns)
            for filter in filters {
                var row = [
                    Table.Cell(filter.filterId), Cells.text(filter.title), Table.Cell(FilterStateView.selection(of: filter)),
                    Table.Cell(filter.presentation.rawValue), Table.Cell(String(filter.options.count)),
                    Table.Cell(String(filter.revision)),
                ]
                if context.wide { row += [Cells.text(filter.source?.rawValue), Cells.date(filter.updatedAt)] }
                table.append(row)
            }
            return table.render(width: context.width, headers: context.headers, style: context.style)
        }
    }

    /// One filter's state: its title, presentation and revision, then its options with the
    /// selected one marked.
    package static func filter(_ state: FilterState) throws -> CommandOutput {
        CommandOutput(document: try DocumentEncoder().encode(state)) { context in
            FilterStateView(state: state).lines(style: context.style, width: context.width).joined(separator: "\n") + "\n"
        }
    }
}
