/// A failure the CLI reports itself: its message for standard error and its exit status.
///
/// ```swift
/// throw CLIFailure.usage("--price must be AMOUNT CURRENCY, such as '990.00 EUR'")
/// ```
public struct CLIFailure: Error, Sendable, CustomStringConvertible {
    public var status: ExitStatus
    public var message: String

    public init(status: ExitStatus, message: String) {
        self.status = status
        self.message = message
    }

    /// A usage error (exit 2): bad arguments, an unusable config file, a missing `--yes`.
    public static func usage(_ message: String) -> CLIFailure {
        CLIFailure(status: .usage, message: message)
    }

    public var description: String { message }
}
