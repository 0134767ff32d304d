import GRDB
import Synchronization

/// Read-only connections for point reads, each used by one thread at a time: a read takes an
/// idle connection, or opens one more when every connection is busy. At most as many exist as
/// threads ever read at once (the event loops, mostly), so none is ever waited for.
final class PointReaders: Sendable {
    private let path: String
    private let configuration: Configuration
    private let idle: Mutex<[DatabaseQueue]>

    /// Opens `count` connections to the database at `path` ahead of need.
    init(path: String, configuration: Configuration, count: Int) throws {
        var configuration = configuration
        configuration.readonly = true
        self.path = path
        self.configuration = configuration
        idle = Mutex(try (0..<count).map { _ in try DatabaseQueue(path: path, configuration: configuration) })
    }

    /// Runs `body` on an idle connection, on the calling thread.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let reader = try idle.withLock { $0.popLast() } ?? DatabaseQueue(path: path, configuration: configuration)
        defer { idle.withLock { $0.append(reader) } }
        return try reader.inDatabase(body)
    }
}
