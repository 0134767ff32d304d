import Foundation

/// The yes/no question that destructive commands ask before they act.
///
/// It is asked on standard error and answered on standard input, only when standard input
/// is a terminal; `--yes` skips it. Without a terminal and without `--yes` the command
/// refuses (a usage error) instead of waiting for an answer nobody will type.
///
/// ```swift
/// let confirmation = try Confirmation(console: console, assumeYes: yes, action: "delete category 7")
/// // … show what will happen (a dry run) …
/// guard confirmation.ask("Delete category 'Books'?") else { return }
/// ```
package struct Confirmation: Sendable {
    private let console: Console
    private let assumeYes: Bool

    /// Checks, before anything is done, that the question can be answered.
    ///
    /// - Parameter action: What needs confirming, for the refusal message (`"delete item 17"`).
    /// - Throws: ``CLIFailure`` (usage) when `assumeYes` is false and standard input is not a terminal.
    package init(console: Console, assumeYes: Bool, action: String) throws(CLIFailure) {
        guard assumeYes || console.inputIsTerminal else {
            throw .usage("refusing to \(action) without confirmation: standard input is not a terminal; pass --yes to confirm")
        }
        self.console = console
        self.assumeYes = assumeYes
    }

    /// `true` with `--yes`; otherwise asks `question` and is `true` for `y` or `yes`.
    package func ask(_ question: String) -> Bool {
        if assumeYes { return true }
        console.writeError(console.errorStyle.bold(question.terminalSafe) + " [y/N] ")
        guard let answer = console.readLine() else {
            console.writeError("\n")
            return false
        }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}
