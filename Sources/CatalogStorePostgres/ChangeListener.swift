import Logging
import PostgresNIO
import Synchronization

/// A replica's ear for the others: one connection of its own (never a pooled one: a pooler
/// in transaction mode would drop its `LISTEN`) listening on `catalog`.
///
/// PostgreSQL does not keep notifications for a connection that is gone, so on every
/// (re)connection the listener first listens, then compares every filter's head revision with
/// what was told and reads what is missing, and only then relies on the notifications. The same
/// comparison runs every `Settings.headCheckInterval` as a safety net.
///
/// Notifications are drained as they come: each only marks its filter for reading (a set,
/// bounded by the number of filters), and one task reads marked filters, each once however
/// many notices named it, so postgres-nio's unbounded notification buffer never grows.
struct ChangeListener: Sendable {
    let store: PostgresCatalogStore
    /// Called once, when the first connection has caught up with every filter (or failed to).
    let started: @Sendable () -> Void

    /// Listens until cancelled, connecting again whenever the connection is lost.
    func run() async {
        defer { started() }
        let initialDelay = Duration.milliseconds(20)
        var delay = initialDelay
        var connectionID = 0
        while !Task.isCancelled {
            connectionID += 1
            do {
                try await listenOnce(connectionID: connectionID) { delay = initialDelay }
            } catch is CancellationError {
                break
            } catch {
                if Task.isCancelled { break }
                store.logger.warning(
                    "lost the connection that listens for other replicas' changes; connecting again",
                    metadata: ["cause": "\(error)", "retryIn": "\(delay)"])
            }
            started()
            store.setListening(false)
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, store.settings.maxReconnectDelay)
        }
        store.setListening(false)
    }

    private func listenOnce(connectionID: Int, listening: () -> Void) async throws {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: store.location.connectionConfiguration, id: connectionID, logger: store.logger)
        } catch {
            store.setReachable(false)
            throw error
        }
        store.setReachable(true)
        do {
            try await listen(on: connection, listening: listening)
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private func listen(on connection: PostgresConnection, listening: () -> Void) async throws {
        try await connection.listen(on: ChangeNotice.channel) { notifications in
            listening()
            // Caught up before anything else: what was missed while not listening.
            for filterID in try await store.filtersBehind() {
                try await store.catchUp(filterID: filterID)
            }
            store.setListening(true)
            started()
            let marks = FilterMarks()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await readMarkedFilters(marks) }
                group.addTask { try await checkHeads(marks) }
                for try await notification in notifications {
                    guard let (origin, notice) = ChangeNotice.parse(notification.payload), origin != store.replicaID else { continue }
                    switch notice {
                    case .categories: store.categoryCache.generation.changedElsewhere()
                    case .items: store.itemCache.generation.changedElsewhere()
                    case .filter(let filterID): marks.mark(filterID)
                    }
                }
                // The sequence ends when the connection does.
                throw ListenerError.connectionEnded
            }
        }
    }

    /// Every interval: marks every filter whose head differs from what was told.
    private func checkHeads(_ marks: FilterMarks) async throws {
        while true {
            try await Task.sleep(for: store.settings.headCheckInterval)
            for filterID in try await store.filtersBehind() { marks.mark(filterID) }
        }
    }

    private func readMarkedFilters(_ marks: FilterMarks) async throws {
        for await filterIDs in marks.batches {
            for filterID in filterIDs {
                try await store.catchUp(filterID: filterID)
            }
        }
    }
}

enum ListenerError: Error {
    case connectionEnded
}

/// Filters to read, each once however often marked, with a wake-up for their reader.
final class FilterMarks: Sendable {
    private let marked = Mutex<Set<String>>([])
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>

    init() {
        (wakes, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    deinit {
        wake.finish()
    }

    func mark(_ filterID: String) {
        let first = marked.withLock { $0.insert(filterID).inserted && $0.count == 1 }
        if first { wake.yield() }
    }

    /// The marked filters, taken as they are each time the reader wakes.
    var batches: AsyncMapSequence<AsyncStream<Void>, Set<String>> {
        wakes.map { [self] in marked.withLock { marks in defer { marks = [] }; return marks } }
    }
}
