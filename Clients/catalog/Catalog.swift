import ArgumentParser
import CatalogCLI
import CatalogKit
import Foundation

/// `catalog`: the command-line client of `catalogd`.
@main
struct Catalog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Call catalogd: items, categories, filters, and any method by name.",
        discussion: """
            SERVER AND TOKEN
              --server HOST:PORT, else the server of the context named by --context,
              else CATALOG_SERVER, else the server of the current context of the config
              file, else 127.0.0.1:50051. The token is never a flag: the --context's
              token, else CATALOG_TOKEN, else the current context's. The config file is
              $CATALOG_CONFIG, else $XDG_CONFIG_HOME/catalog/config.json, else
              ~/.config/catalog/config.json:
                {"current": "local",
                 "contexts": {"local": {"server": "127.0.0.1:50051", "token": "…"}}}

            OUTPUT
              A table when standard output is a terminal, JSON otherwise; -o table, wide,
              json, ndjson or yaml chooses. Colours only on a terminal, never with
              NO_COLOR set. Control characters the server sends (escape sequences,
              line breaks) are shown as codes such as \\u{1B} in tables, text and
              errors, and escaped in JSON and YAML; -o json gives the exact text.

            EXIT STATUS
              0     success; also a declined confirmation (nothing changed)
              1     internal error
              2     usage error, an unusable config file, or a destructive command
                    without --yes when standard input is not a terminal
              64+N  a call failed with gRPC status N, as with grpcurl: 67 INVALID_ARGUMENT,
                    69 NOT_FOUND, 70 ALREADY_EXISTS, 73 FAILED_PRECONDITION, 74 ABORTED,
                    77 INTERNAL (also a response that cannot be read), 78 UNAVAILABLE
                    (also an unreachable server), 80 UNAUTHENTICATED
              124   filter watch --timeout passed before its --until condition held

            COMPLETION
              catalog --generate-completion-script bash|zsh|fish; category names and ids
              and filter ids are completed from the server.
            """,
        subcommands: [
            ItemCommand.self, CategoryCommand.self, FilterCommand.self, HealthCommand.self, CallCommand.self,
            APICommand.self,
        ]
    )

    /// Runs the command, then exits with the documented status: usage errors are 2 (not
    /// ArgumentParser's 64, which would read as an RPC status), RPC errors 64 + their code.
    static func main() async {
        do {
            var command = try await asyncParseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            Foundation.exit(report(error))
        }
    }

    private static func report(_ error: any Error) -> Int32 {
        let console = Console(environment: ProcessInfo.processInfo.environment)
        switch error {
        case let error as RPCError:
            console.writeError(ErrorReport.text(for: error, style: console.errorStyle))
            return ExitStatus.rpc(error.code).code
        case let failure as CLIFailure:
            console.writeError(ErrorReport.text(for: failure, style: console.errorStyle))
            return failure.status.code
        default:
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { console.write(message + "\n") }
                return ExitStatus.ok.code
            }
            if !message.isEmpty { console.writeError(message + "\n") }
            return code == .validationFailure ? ExitStatus.usage.code : code.rawValue
        }
    }
}
