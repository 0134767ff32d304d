import CatalogKit
import Synchronization

/// `filter watch` for programs: each event as one compact JSON object per line (`-o json`
/// and `-o ndjson`), or as one YAML document (`-o yaml`); interruptions as a note on
/// standard error, once per outage.
package final class FilterEventPrinter: Sendable {
    private let console: Console
    private let yaml: Bool
    /// The note of the outage under way; `nil` since the last event.
    private let lastNote = Mutex<String?>(nil)

    package init(console: Console, format: OutputFormat) {
        self.console = console
        self.yaml = format == .yaml
    }

    /// Writes `event`.
    package func show(_ event: FilterEvent) throws {
        let document = try DocumentEncoder().encode(event)
        lastNote.withLock { $0 = nil }
        console.write(yaml ? "---\n" + document.yaml : document.compactJSON + "\n")
    }

    /// Notes on standard error that the stream was lost and is being resumed, unless the
    /// same note was the last thing said.
    package func showInterruption(_ error: RPCError) {
        let note = "watch interrupted (\(error.code.name): \(error.message.terminalSafe)); resuming\n"
        let isNew = lastNote.withLock { last in
            defer { last = note }
            return last != note
        }
        if isNew { console.writeError(console.errorStyle.yellow("watch interrupted") + note.dropFirst("watch interrupted".count)) }
    }
}
