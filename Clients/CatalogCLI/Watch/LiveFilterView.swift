import CatalogKit
import Foundation
import Synchronization

/// `filter watch` on a terminal: the filter's state and a status line, redrawn in place on
/// standard output as events arrive and when the stream is lost.
///
/// ```
/// formations · Niveaux · expanded · revision 7 · selected: 2 (Expert)
///   ○ 1  Débutant
///   ● 2  Expert
/// live · revision 7 · 10:04:05
/// ```
package final class LiveFilterView: Sendable {
    private enum Status {
        case connecting(filterId: String)
        case live(revision: Int64, at: Date, reset: Bool)
        case reconnecting(RPCError)
    }

    private struct Screen {
        var state: FilterState?
        var status: Status
        /// How many lines the last drawing took, to move back over them.
        var drawnLines = 0
    }

    private let console: Console
    private let screen: Mutex<Screen>

    package init(console: Console, filterId: String) {
        self.console = console
        screen = Mutex(Screen(status: .connecting(filterId: filterId)))
        screen.withLock { draw(&$0) }
    }

    /// Shows what `event` says: a new state, or that the stream is live again.
    package func show(_ event: FilterEvent) {
        screen.withLock { screen in
            if let state = event.state { screen.state = state }
            screen.status = .live(revision: event.revision, at: Date(), reset: event.reset == true)
            draw(&screen)
        }
    }

    /// Shows that the stream was lost and is being resumed.
    package func showInterruption(_ error: RPCError) {
        screen.withLock { screen in
            screen.status = .reconnecting(error)
            draw(&screen)
        }
    }

    private func draw(_ screen: inout Screen) {
        let width = max(console.width - 1, 20)
        var lines = screen.state.map {
            FilterStateView(state: $0).lines(style: console.outputStyle, width: width, maxLines: max(console.height - 2, 3))
        } ?? []
        lines.append(statusLine(screen.status, width: width))
        // Back to the first line of the last drawing, clear to the end of the screen, draw.
        let back = screen.drawnLines > 0 ? "\r\u{1B}[\(screen.drawnLines)A\u{1B}[J" : ""
        console.write(back + lines.joined(separator: "\n") + "\n")
        screen.drawnLines = lines.count
    }

    private func statusLine(_ status: Status, width: Int) -> String {
        let style = console.outputStyle
        let (label, detail, paint): (String, String, (String) -> String) =
            switch status {
            case .connecting(let filterId): ("connecting", " to filter \(filterId.terminalSafe)…", style.dim)
            case .live(let revision, let date, let reset):
                ("live", " · revision \(revision) · \(Self.clock(date))" + (reset ? " · history gone, state reloaded" : ""), style.green)
            case .reconnecting(let error): ("reconnecting…", " (\(error.code.name): \(error.message.terminalSafe))", style.yellow)
            }
        return paint(label) + style.dim(DisplayWidth.truncate(detail, to: max(width - label.count, 1)))
    }

    private static func clock(_ date: Date) -> String {
        date.formatted(.dateTime.hour(.twoDigits(amPM: .omitted)).minute(.twoDigits).second(.twoDigits))
    }
}
