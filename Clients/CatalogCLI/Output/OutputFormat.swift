/// How a command shows its result (`-o`).
package enum OutputFormat: String, CaseIterable, Sendable {
    /// Columns for people; the default when standard output is a terminal.
    case table
    /// `table` with every column.
    case wide
    /// The response message, indented; the default when standard output is not a terminal.
    case json
    /// One compact JSON object per line: each record of a list, each event of a stream.
    case ndjson
    /// The response message as YAML.
    case yaml

    /// The format asked for, or the default for where standard output goes.
    package static func resolve(_ requested: OutputFormat?, outputIsTerminal: Bool) -> OutputFormat {
        requested ?? (outputIsTerminal ? .table : .json)
    }

    /// Whether people, not programs, read this format.
    package var isHumanReadable: Bool { self == .table || self == .wide }
}
