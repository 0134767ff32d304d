/// Writes a ``CommandOutput`` to standard output in the chosen ``OutputFormat``.
package struct OutputPrinter: Sendable {
    package let console: Console
    package let format: OutputFormat
    /// Whether tables get their header line (`--no-headers` turns it off).
    package let headers: Bool

    package init(console: Console, format: OutputFormat, headers: Bool) {
        self.console = console
        self.format = format
        self.headers = headers
    }

    /// Writes `output` in this printer's format.
    package func print(_ output: CommandOutput) {
        switch format {
        case .json: console.write(output.document.prettyJSON + "\n")
        case .ndjson: console.write(output.records.map { $0.compactJSON + "\n" }.joined())
        case .yaml: console.write(output.document.yaml)
        case .table, .wide: console.write(output.human(humanContext))
        }
    }

    /// The context of the human view on this console: tables fit a terminal, and are never
    /// cut when written to a file or a pipe.
    package var humanContext: CommandOutput.HumanContext {
        CommandOutput.HumanContext(
            wide: format == .wide, headers: headers, width: console.outputIsTerminal ? console.width : .max,
            style: console.outputStyle)
    }
}
