import ArgumentParser
import CatalogCLI
import CatalogKit

/// `catalog filter watch FILTER [--until KEY=VALUE…] [--timeout SECONDS]`.
struct FilterWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow a filter's state as it changes.",
        discussion: """
            On a terminal the state is redrawn in place; otherwise each event (snapshot, synced, \
            change, heartbeat) is printed as one JSON object per line (-o yaml: one document each). \
            A lost stream is resumed after the last revision shown, with no change missed or \
            repeated ("reconnecting…" meanwhile, or a note on standard error).

            --until waits for a state (several: all of them) and exits 0 once it holds, at once if \
            it already does: selected=3 (option id), selected=Data (option title), selected=all, \
            presentation=collapsed. --timeout ends the watch after so many seconds: with exit \
            status 124 when an --until condition never held, 0 otherwise.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filter: FilterIDArgument

    @Option(help: ArgumentHelp("Stop when this holds: selected=ID|TITLE|all, presentation=expanded|collapsed.", valueName: "key=value"))
    var until: [String] = []

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
    var timeout: Double?

    @Option(help: "Start after this revision instead of with the current state.")
    var sinceRevision: Int64?

    @Option(help: "latest (default: skip to the newest state when behind) or everyChange.")
    var delivery: FilterDelivery = .latest

    @Option(help: ArgumentHelp("A heartbeat event after this many quiet seconds (server default 15).", valueName: "seconds"))
    var heartbeat: Int?

    func validate() throws {
        if let timeout, timeout <= 0 { throw ValidationError("--timeout must be more than 0 seconds") }
    }

    /// How the watch ended.
    private enum Ending {
        case conditionMet, streamEnded, timedOut
    }

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        let conditions = try until.map { text throws(CLIFailure) in try WatchCondition(parsing: text) }
        let live = session.isHumanOutput && session.console.outputIsTerminal
        let view = live ? LiveFilterView(console: session.console, filterId: filter.filterId) : nil
        let printer = FilterEventPrinter(console: session.console, format: session.printer.format)
        let ending = try await session.withClient { client in
            try await withThrowingTaskGroup(of: Ending.self) { group in
                group.addTask {
                    let events = client.filters.watch(
                        filter.filterId, sinceRevision: sinceRevision, delivery: delivery, heartbeatSeconds: heartbeat,
                        options: session.streamOptions,
                        onInterruption: { error in
                            if let view { view.showInterruption(error) } else { printer.showInterruption(error) }
                        })
                    for try await event in events {
                        if let view {
                            view.show(event)
                        } else if session.isHumanOutput {
                            if let state = event.state { session.printer.print(try .filter(state)) }
                        } else {
                            try printer.show(event)
                        }
                        if let state = event.state, !conditions.isEmpty, conditions.allSatisfy({ $0.isMet(by: state) }) {
                            return .conditionMet
                        }
                    }
                    return .streamEnded
                }
                if let timeout {
                    group.addTask {
                        try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                        return .timedOut
                    }
                }
                let first = try await group.next() ?? .streamEnded
                group.cancelAll()
                return first
            }
        }
        switch ending {
        case .conditionMet:
            if session.isHumanOutput { session.note("\(until.joined(separator: ", ")): reached.") }
        case .timedOut where !conditions.isEmpty:
            throw CLIFailure(
                status: .watchTimeout, message: "\(until.joined(separator: ", ")) did not happen within \(Self.seconds(timeout))")
        case .timedOut, .streamEnded:
            break
        }
    }

    private static func seconds(_ value: Double?) -> String {
        guard let value else { return "" }
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
