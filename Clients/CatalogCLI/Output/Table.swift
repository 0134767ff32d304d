/// Rows under upper-case headers, in columns three spaces apart, as `-o table` shows them.
///
/// Columns fit the terminal: when the rows are wider than it, the flexible columns (titles,
/// summaries) shrink and their cells end with `…`.
///
/// ```swift
/// var table = Table(columns: [.init("ID", alignment: .right), .init("NAME", flexible: true)])
/// table.append([Table.Cell("3"), Table.Cell("IA Générative")])
/// console.write(table.render(width: console.width, headers: true, style: console.outputStyle))
/// ```
package struct Table: Sendable {
    /// One column: its header, alignment, and whether it may shrink to fit.
    package struct Column: Sendable {
        package enum Alignment: Sendable { case left, right }

        package var header: String
        package var alignment: Alignment
        package var flexible: Bool

        package init(_ header: String, alignment: Alignment = .left, flexible: Bool = false) {
            self.header = header
            self.alignment = alignment
            self.flexible = flexible
        }
    }

    /// One cell: its text, and how to colour it on a terminal.
    package struct Cell: Sendable {
        /// The text shown, control characters escaped (see `String.terminalSafe`).
        package let text: String
        package var paint: @Sendable (TextStyle, String) -> String

        package init(_ text: String, paint: @escaping @Sendable (TextStyle, String) -> String = { _, text in text }) {
            self.text = text.terminalSafe
            self.paint = paint
        }
    }

    package var columns: [Column]
    package private(set) var rows: [[Cell]] = []

    package init(columns: [Column]) { self.columns = columns }

    /// Adds a row; it must have one cell per column.
    package mutating func append(_ row: [Cell]) {
        precondition(row.count == columns.count, "a row of \(row.count) cells in a table of \(columns.count) columns")
        rows.append(row)
    }

    private static let gap = 3
    private static let minimumFlexibleWidth = 8

    /// The table as lines ending in a newline, fitted to `width` columns.
    package func render(width: Int, headers: Bool, style: TextStyle) -> String {
        let widths = columnWidths(fitting: width, headers: headers)
        var text = ""
        if headers {
            text += line(columns.map { Cell($0.header, paint: { style, text in style.bold(text) }) }, widths: widths, style: style)
        }
        for row in rows { text += line(row, widths: widths, style: style) }
        return text
    }

    private func columnWidths(fitting width: Int, headers: Bool) -> [Int] {
        var widths = columns.indices.map { index in
            let cells = rows.map { DisplayWidth.of($0[index].text) }
            return max(headers ? DisplayWidth.of(columns[index].header) : 0, cells.max() ?? 0)
        }
        var excess = widths.reduce(0, +) + Self.gap * max(columns.count - 1, 0) - width
        // Take from the widest flexible column first, never below its minimum.
        while excess > 0 {
            let candidates = columns.indices.filter { columns[$0].flexible && widths[$0] > Self.minimumFlexibleWidth }
            guard let widest = candidates.max(by: { widths[$0] < widths[$1] }) else { break }
            let others = candidates.filter { $0 != widest }.map { widths[$0] }.max() ?? Self.minimumFlexibleWidth
            let cut = min(excess, widths[widest] - max(others, Self.minimumFlexibleWidth), widths[widest] - Self.minimumFlexibleWidth)
            widths[widest] -= max(cut, 1)
            excess -= max(cut, 1)
        }
        return widths
    }

    private func line(_ cells: [Cell], widths: [Int], style: TextStyle) -> String {
        var parts: [String] = []
        for (index, cell) in cells.enumerated() {
            let text = DisplayWidth.truncate(cell.text, to: widths[index])
            let padding = String(repeating: " ", count: widths[index] - DisplayWidth.of(text))
            let painted = cell.paint(style, text)
            let isLast = index == cells.count - 1
            switch columns[index].alignment {
            case .left: parts.append(isLast ? painted : painted + padding)
            case .right: parts.append(padding + painted)
            }
        }
        var line = parts.joined(separator: String(repeating: " ", count: Self.gap))
        while line.last == " " { line.removeLast() }
        return line + "\n"
    }
}
