import CatalogKit
import Foundation

/// Table cells for the values that several views show the same way.
enum Cells {
    static func id(_ id: Int64) -> Table.Cell { Table.Cell(String(id)) }

    /// Text, or a dimmed `-` when absent.
    static func text(_ text: String?) -> Table.Cell {
        guard let text, !text.isEmpty else { return Table.Cell("-", paint: { $0.dim($1) }) }
        return Table.Cell(text.replacingOccurrences(of: "\n", with: " "))
    }

    /// `990.00 EUR`, or `-`.
    static func price(_ price: Money?) -> Table.Cell {
        text(price.map { "\($0.amount) \($0.currency)" })
    }

    /// A dot in the colour, then its hex code.
    static func color(_ hex: String) -> Table.Cell {
        Table.Cell("● \(hex)", paint: { style, text in
            text.hasPrefix("●") ? style.color(hex: hex, "●") + text.dropFirst() : text
        })
    }

    static func yesNo(_ value: Bool) -> Table.Cell {
        value ? Table.Cell("yes", paint: { $0.cyan($1) }) : Table.Cell("no")
    }

    static func date(_ date: Date) -> Table.Cell { Table.Cell(date.ISO8601Format()) }

    /// The category's name, `#id` when it is not known, `-` when there is none.
    static func category(_ id: Int64?, names: [Int64: String]) -> Table.Cell {
        guard let id else { return text(nil) }
        return Table.Cell(names[id] ?? "#\(id)")
    }
}
