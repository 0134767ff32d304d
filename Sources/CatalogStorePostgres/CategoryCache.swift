import CatalogAPI
import Synchronization

/// Every category in position order, kept from one read to the next while no category
/// changes, on this replica or another.
///
/// The generation moves when a local transaction first changes a category, when it ends, when
/// another replica's notice arrives, and when the listener loses or regains its connection. A
/// read is kept only if the generation did not move while it ran, no local write to categories
/// was under way when it began, and the listener is connected (otherwise another replica's
/// change could go unnoticed). So a kept list is never older than a local write already
/// acknowledged, and lags another replica's commit only until its notice arrives.
final class CategoryCache: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var writesUnderWay = 0
        var listening = false
        var kept: (generation: UInt64, categories: [Category])?
    }

    private let state = Mutex(State())

    /// The generation to pass to `categories(at:)` and `keep(_:readAt:)`, or `nil` when a read
    /// now may not be kept; take it before the read begins.
    var generation: UInt64? {
        state.withLock { $0.writesUnderWay == 0 && $0.listening ? $0.generation : nil }
    }

    /// The kept categories, if they are those of `generation`.
    func categories(at generation: UInt64) -> [Category]? {
        state.withLock { $0.kept?.generation == generation ? $0.kept?.categories : nil }
    }

    /// Keeps `categories`, read from `generation`, unless anything moved since.
    func keep(_ categories: [Category], readAt generation: UInt64) {
        state.withLock { state in
            if state.generation == generation, state.writesUnderWay == 0 { state.kept = (generation, categories) }
        }
    }

    func commitBegins() {
        state.withLock { state in
            state.writesUnderWay += 1
            state.generation += 1
        }
    }

    func commitEnds() {
        state.withLock { state in
            state.writesUnderWay -= 1
            state.generation += 1
        }
    }

    /// Another replica changed the categories.
    func changedElsewhere() {
        state.withLock { $0.generation += 1 }
    }

    /// Whether the listener is connected, so that other replicas' changes are heard.
    func setListening(_ listening: Bool) {
        state.withLock { state in
            state.listening = listening
            state.generation += 1
        }
    }
}
