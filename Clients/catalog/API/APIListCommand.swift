import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog api list [SERVICE]`.
struct APIListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List every method with its kind and least role.")

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("Only this service's methods, e.g. catalog.v1.Categories.", valueName: "service"))
    var service: String?

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            let contract = try await client.reflection.describe(options: session.callOptions)
            let services = contract.services.filter { service == nil || $0.name == service }
            if let service, services.isEmpty {
                throw CLIFailure(status: .rpc(.notFound), message: "the server has no service '\(service)'")
            }
            session.printer.print(try .methodList(services.flatMap(\.methods)))
        }
    }
}
