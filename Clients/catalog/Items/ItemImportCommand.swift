import ArgumentParser
import CatalogCLI
import CatalogKit
import Synchronization

/// `catalog item import FILE`: one ImportItems call, a progress bar on a terminal.
struct ItemImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Create many items from a file, all or none.",
        discussion: """
            FILE holds JSON lines, one CreateItem request per line ({"title": "…", "categoryId": 3}), \
            or CSV with a header row naming the fields: \(ItemImportFile.csvColumns.joined(separator: ", ")) \
            (price as '990.00 EUR'; an empty cell leaves the field out). A name ending in .csv, or \
            a first character other than {, is CSV.

            The items go in one call and one transaction: all are created, with consecutive ids \
            in file order, or none, and the line the server refused is named. At most 100 000 \
            items. A progress bar shows on a terminal; the summary is JSON when the output is \
            not a terminal.
            """
    )

    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: ArgumentHelp("JSON lines or CSV, or - for standard input.", valueName: "file"),
              completion: .file(extensions: ["jsonl", "csv"]))
    var file: String

    func run() async throws {
        let session = try Session(connection: connection, output: output)
        let items = try ItemImportFile.read(file)
        try await session.withClient { client in
            let progress = Mutex(ProgressBar(console: session.console, label: "Importing", unit: "items", total: items.requests.count))
            let sent = SentRequests(items.requests) { count in
                // Redrawn every 1 % (and at the end): a redraw per item would cost more than sending it.
                let step = max(items.requests.count / 100, 1)
                if count % step == 0 || count == items.requests.count { progress.withLock { $0.update(completed: count) } }
            }
            let result: ImportItemsResponse
            do {
                result = try await client.items.import(sent, options: session.callOptions)
            } catch let error as RPCError {
                progress.withLock { $0.finish() }
                throw Self.naming(error, in: items)
            }
            progress.withLock { $0.finish() }
            let ids = result.firstId.map { first in " (ids \(first)–\(result.lastId ?? first))" } ?? ""
            session.printer.print(
                try .sentence("Imported \(result.created) items\(ids) at catalog revision \(result.revision).", message: result))
        }
    }

    /// `error` with the file and line of the request it names (`details.index`), if it names one.
    static func naming(_ error: RPCError, in file: ItemImportFile) -> RPCError {
        guard case .integer(let index)? = error.detail?.details?["index"], file.lines.indices.contains(Int(index)) else { return error }
        var named = error
        named.message = "\(file.name):\(file.lines[Int(index)]): \(error.message)"
        return named
    }
}

/// The requests of a file as an async sequence that reports how many were taken: each is taken
/// once the one before was sent, so the count follows the upload.
private struct SentRequests: AsyncSequence, Sendable {
    typealias Element = CreateItemRequest
    let requests: [CreateItemRequest]
    let taken: @Sendable (Int) -> Void

    init(_ requests: [CreateItemRequest], taken: @escaping @Sendable (Int) -> Void) {
        self.requests = requests
        self.taken = taken
    }

    func makeAsyncIterator() -> Iterator { Iterator(requests: requests, taken: taken) }

    struct Iterator: AsyncIteratorProtocol {
        let requests: [CreateItemRequest]
        let taken: @Sendable (Int) -> Void
        var index = 0

        mutating func next() async -> CreateItemRequest? {
            if index > 0 { taken(index) }
            guard index < requests.count else { return nil }
            defer { index += 1 }
            return requests[index]
        }
    }
}
