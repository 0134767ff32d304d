import CatalogKit

/// The text `catalog` writes to standard error for a failed call: the gRPC status and the
/// server's message, then the contract's `reason`, `field` and `details`, when present. What
/// the server sent has its control characters escaped (`String.terminalSafe`), so it stays
/// on its line and never drives the terminal.
///
/// ```
/// error: NOT_FOUND: no item 999
///   reason: notFound
///   details: {"id":999}
/// ```
package enum ErrorReport {
    /// The report of `error`, ending with a newline.
    package static func text(for error: RPCError, style: TextStyle) -> String {
        var lines = [style.red("error:") + " " + style.bold(error.code.name) + ": " + error.message.terminalSafe]
        if let reason = error.reason { lines.append("  reason: \(reason.terminalSafe)") }
        if let field = error.field { lines.append("  field: \(field.terminalSafe)") }
        if !error.details.isEmpty {
            lines.append("  details: " + JSONDocument(.object(error.details)).compactJSON)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report of a failure of the CLI itself, ending with a newline.
    package static func text(for failure: CLIFailure, style: TextStyle) -> String {
        style.red("error:") + " " + failure.message.terminalSafe + "\n"
    }
}
