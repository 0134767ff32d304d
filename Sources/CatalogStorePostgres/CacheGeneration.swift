import Synchronization

/// The validity stamp of a replica's cache of a table's reads.
///
/// It moves when a local transaction first changes the table, when that transaction ends, when
/// another replica's notice says it changed the table, and when the listener loses or regains
/// its connection. A read may be kept only if the stamp did not move while it ran, no local
/// write to the table was under way when it began, and the listener is connected (otherwise
/// another replica's change could go unnoticed). So a kept read is never older than a local
/// write already acknowledged, and lags another replica's commit only until its notice arrives.
final class CacheGeneration: Sendable {
    private struct State {
        var value: UInt64 = 0
        var writesUnderWay = 0
        var listening = false
    }

    private let state = Mutex(State())

    /// The stamp to read under, or `nil` when a read now may not be kept; take it before the
    /// read begins.
    var current: UInt64? {
        state.withLock { $0.writesUnderWay == 0 && $0.listening ? $0.value : nil }
    }

    /// Whether what was read under `stamp` may still be kept and served.
    func holds(_ stamp: UInt64) -> Bool {
        state.withLock { $0.value == stamp && $0.writesUnderWay == 0 && $0.listening }
    }

    func commitBegins() {
        state.withLock { state in
            state.writesUnderWay += 1
            state.value += 1
        }
    }

    func commitEnds() {
        state.withLock { state in
            state.writesUnderWay -= 1
            state.value += 1
        }
    }

    /// Another replica changed the table.
    func changedElsewhere() {
        state.withLock { $0.value += 1 }
    }

    /// Whether the listener is connected, so that other replicas' changes are heard.
    func setListening(_ listening: Bool) {
        state.withLock { state in
            state.listening = listening
            state.value += 1
        }
    }
}
