import CatalogAPI
import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog health [--service NAME]`.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Ask whether the server, or one of its services, is serving.",
        discussion: "Prints the status; exits 0 when SERVING, else 78 (as UNAVAILABLE would). Needs no token."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Option(help: "A service such as catalog.v1.Categories (default: the whole server).")
    var service: String?

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        let status = try await session.withClient { client in
            try await client.health.check(service: service, options: session.callOptions)
        }
        let style = session.console.outputStyle
        session.printer.print(
            CommandOutput(document: try DocumentEncoder().encode(HealthCheckResponse(status: status))) { _ in
                (status == .serving ? style.green(status.rawValue) : style.red(status.rawValue.terminalSafe)) + "\n"
            })
        if status != .serving { throw CLIFailure(status: .rpc(.unavailable), message: "\(service ?? "the server") is \(status)") }
    }
}
