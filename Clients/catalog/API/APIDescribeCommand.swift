import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog api describe SERVICE/METHOD | SERVICE`.
struct APIDescribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Show a method's request and response fields (or every method of a service).",
        discussion: "-o json prints the contract's method objects, with their JSON Schemas."
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("A method, e.g. catalog.v1.Categories/Create, or a service.", valueName: "name"))
    var name: String

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        try await session.withClient { client in
            let contract = try await client.reflection.describe(options: session.callOptions)
            let path = name.hasPrefix("/") ? name : "/" + name
            let methods = contract.services.flatMap(\.methods).filter { $0.path == path }
            let matches = methods.isEmpty ? contract.services.first { $0.name == name }?.methods ?? [] : methods
            guard !matches.isEmpty else {
                throw CLIFailure(status: .rpc(.notFound), message: "the server has no method or service '\(name)'; see 'catalog api list'")
            }
            session.printer.print(try .methodDescriptions(matches))
        }
    }
}
