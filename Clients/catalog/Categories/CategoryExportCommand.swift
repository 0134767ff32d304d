import ArgumentParser
import CatalogCLI
import CatalogKit
import Foundation

/// `catalog category export [--file PATH]`.
struct CategoryExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every category as a catalog.categories.v1 document, for 'category import'.",
        discussion: "The document is JSON (YAML with -o yaml), on standard output or in --file."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Option(help: ArgumentHelp("Write it to this file instead.", valueName: "path"), completion: .file(extensions: ["json"]))
    var file: String?

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            let export = try await client.categories.export(options: session.callOptions)
            let output = try CommandOutput.export(export)
            guard let file else {
                session.printer.print(output)
                return
            }
            let text = session.printer.format == .yaml ? output.document.yaml : output.document.prettyJSON + "\n"
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            } catch {
                throw CLIFailure.usage("cannot write \(file): \(error.localizedDescription)")
            }
            session.note("Exported \(export.categories.count) categories to \(file).")
        }
    }
}
