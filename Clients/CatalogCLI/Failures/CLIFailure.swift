/// A failure the CLI reports itself: its message for standard error and its exit status.
///
/// ```swift
/// throw CLIFailure.usage("--price must be AMOUNT CURRENCY, such as '990.00 EUR'")
/// ```
package struct CLIFailure: Error, Sendable, CustomStringConvertible {
    package var status: ExitStatus
    package var message: String

    package init(status: ExitStatus, message: String) {
        self.status = status
        self.message = message
    }

    /// A usage error (exit 2): bad arguments, an unusable config file, a missing `--yes`.
    package static func usage(_ message: String) -> CLIFailure {
        CLIFailure(status: .usage, message: message)
    }

    package var description: String { message }
}
