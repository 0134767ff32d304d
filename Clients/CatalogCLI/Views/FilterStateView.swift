import CatalogKit

/// A filter's state for people: a heading, then one line per option with the selected one
/// marked, as `filter get` prints it and `filter watch` redraws it.
///
/// ```
/// formations · Catégories · expanded · revision 42
///   ○ 1  Family
///   ● 3  IA Générative
/// ```
package struct FilterStateView: Sendable {
    package var state: FilterState

    package init(state: FilterState) { self.state = state }

    /// The lines, without line breaks, each at most `width` columns; at most `maxLines`
    /// of them, the options that do not fit summed up on the last line.
    package func lines(style: TextStyle, width: Int, maxLines: Int = .max) -> [String] {
        let filterId = state.filterId.terminalSafe
        let plainHeading = [
            filterId, state.title.terminalSafe, state.presentation.rawValue.terminalSafe, "revision \(state.revision)",
            "selected: \(Self.selection(of: state))",
        ].joined(separator: " · ")
        let heading = DisplayWidth.truncate(plainHeading, to: width)
        var lines = [heading.hasPrefix(filterId) ? style.bold(filterId) + heading.dropFirst(filterId.count) : heading]
        let idWidth = state.options.map { String($0.id).count }.max() ?? 1
        let shown = state.options.count + 1 <= maxLines ? state.options[...] : state.options.prefix(max(maxLines - 2, 0))
        for option in shown {
            let selected = option.id == state.selectedId
            let id = String(repeating: " ", count: idWidth - String(option.id).count) + String(option.id)
            let marker = selected ? style.green("●") : "○"
            let title = DisplayWidth.truncate(option.title.terminalSafe, to: max(width - idWidth - 6, 1))
            lines.append("  \(marker) \(id)  \(selected ? style.bold(title) : title)")
        }
        if shown.count < state.options.count { lines.append(style.dim("  … \(state.options.count - shown.count) more")) }
        if state.options.isEmpty { lines.append(style.dim("  (no options)")) }
        return lines
    }

    /// `all`, or the selected option as `3 (IA Générative)`, safe for a terminal.
    package static func selection(of state: FilterState) -> String {
        guard let selectedId = state.selectedId else { return "all" }
        guard let option = state.options.first(where: { $0.id == selectedId }) else { return String(selectedId) }
        return "\(selectedId) (\(option.title.terminalSafe))"
    }
}
