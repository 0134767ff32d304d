/// A progress bar on standard error, redrawn in place, shown only when standard error is a
/// terminal:
///
/// ```
/// Importing  [██████████████░░░░░░░░░░░░]  54%  1620/3000 categories
/// ```
///
/// ```swift
/// var progress = ProgressBar(console: console, label: "Importing", unit: "categories", total: 3000)
/// progress.update(completed: 500)
/// progress.finish()
/// ```
package struct ProgressBar: Sendable {
    private let console: Console
    private let label: String
    private let unit: String
    private let total: Int
    private var completed = 0

    package init(console: Console, label: String, unit: String, total: Int) {
        self.console = console
        self.label = label
        self.unit = unit
        self.total = max(total, 0)
        draw()
    }

    /// Sets how many units are done and redraws.
    package mutating func update(completed: Int) {
        self.completed = min(max(completed, 0), total)
        draw()
    }

    /// Ends the bar's line, leaving it on screen.
    package func finish() {
        guard console.errorIsTerminal else { return }
        console.writeError("\n")
    }

    private func draw() {
        guard console.errorIsTerminal else { return }
        let fraction = total == 0 ? 1 : Double(completed) / Double(total)
        let percent = String(Int((fraction * 100).rounded(.down)))
        let counts = "\(completed)/\(total) \(unit)"
        let fixed = DisplayWidth.of(label) + 2 + 2 + 2 + 4 + 2 + DisplayWidth.of(counts)
        let barWidth = max(min(console.width - fixed - 1, 40), 10)
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        let padding = String(repeating: " ", count: 3 - percent.count)
        let style = console.errorStyle
        console.writeError("\r\(label)  [\(style.cyan(bar))]  \(padding)\(percent)%  \(counts)\u{1B}[K")
    }
}
