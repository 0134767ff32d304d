import CatalogAPI
import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog call SERVICE/METHOD [-d JSON|@FILE|@-]`: any method, JSON in and out.
struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Call any method with a JSON request; print each response message.",
        discussion: """
            Example: catalog call catalog.v1.Categories/Get -d '{"id": 3}'. The response is printed \
            as the server sent it: indented JSON (-o json, the default), one line per message \
            (-o ndjson, the default for streaming methods such as catalog.v1.Filters/Watch), or \
            YAML (one document per message). A streaming call runs until the server ends it or you \
            press Ctrl-C, or --max-time passes. 'catalog api list' shows the methods.
            """
    )

    @OptionGroup var connection: ConnectionOptions

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("json, ndjson or yaml.", valueName: "format"))
    var format: OutputFormat?

    @Argument(help: ArgumentHelp("The method, e.g. catalog.v1.Categories/List.", valueName: "service/method"))
    var method: String

    @Option(name: [.customShort("d"), .customLong("data")], help: ArgumentHelp("The request: JSON, @file, or @- for standard input (default {}).", valueName: "json"))
    var data: String?

    func validate() throws {
        if let format, format.isHumanReadable { throw ValidationError("call prints json, ndjson or yaml, not \(format.rawValue)") }
        let parts = method.drop { $0 == "/" }.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty }) else {
            throw ValidationError("'\(method)' is not SERVICE/METHOD, such as catalog.v1.Categories/List")
        }
    }

    func run() async throws {
        let isStreaming = CatalogContract.method(at: method.hasPrefix("/") ? method : "/" + method)?.descriptor.kind.serverStreaming == true
        let format = self.format ?? (isStreaming ? .ndjson : .json)
        let session = try Session(connection: connection, format: format)
        let request = try RequestBody.read(data)
        let printer = session.printer
        let options = isStreaming ? session.streamOptions : session.callOptions
        try await session.withClient { client in
            for try await message in try await client.raw.call(method, request: request, options: options) {
                let document: JSONDocument
                do {
                    // A zero-length message is `{}` (contract §1).
                    document = message.isEmpty ? .object([]) : try JSONDocument(parsing: message)
                } catch {
                    throw RPCError(.internalError, "the server's response is not JSON: \(error)")
                }
                if format == .yaml && isStreaming { session.console.write("---\n") }
                printer.print(CommandOutput(document: document) { _ in "" })
            }
        }
    }
}
