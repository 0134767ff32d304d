import ArgumentParser
import CatalogCLI

/// `-o` and `--no-headers`: how results are shown.
struct OutputOptions: ParsableArguments {
    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp(
            "table, wide, json, ndjson or yaml (default: table on a terminal, else json).", valueName: "format"))
    var format: OutputFormat?

    @Flag(name: .customLong("no-headers"), help: "Print tables without their header line.")
    var noHeaders = false
}

