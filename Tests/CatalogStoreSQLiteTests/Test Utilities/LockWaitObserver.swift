import Foundation
import GRDB
import GRDBSQLite
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a test that a connection is waiting for a lock another connection holds, without
/// guessing how long that takes: SQLite's busy handler sleeps between its attempts through
/// the VFS's `xSleep`, and `install()` makes the default VFS one whose `xSleep` reports the
/// sleeping thread before it sleeps. Everything else is the default VFS's own.
///
/// Only the thread that last ran a statement on the watched connection is reported, so other
/// connections of the process (other tests' included) waiting meanwhile are ignored.
final class LockWaitObserver: Sendable {
    private struct Watch {
        /// The thread that runs the watched connection's current statement.
        var thread: pthread_t?
        var onWait: (@Sendable () -> Void)?
    }

    private let watch = Mutex(Watch())

    /// The observer `xSleep` reports to: one at a time.
    private static let current = Mutex<LockWaitObserver?>(nil)

    /// Makes the wrapping VFS the default one for connections opened from now on (once per process).
    static func install() {
        _ = installed
    }

    private static let installed: Void = {
        guard let base = sqlite3_vfs_find(nil) else { fatalError("SQLite has no default VFS") }
        let shim = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        shim.initialize(to: base.pointee)
        shim.pointee.zName = UnsafePointer(strdup("lock-wait-observer"))
        baseSleep.withLock { $0 = base.pointee.xSleep }
        shim.pointee.xSleep = { vfs, microseconds in
            LockWaitObserver.current.withLock { $0 }?.threadSleeps()
            return LockWaitObserver.baseSleep.withLock { $0 }?(vfs, microseconds) ?? 0
        }
        guard sqlite3_vfs_register(shim, 1) == SQLITE_OK else { fatalError("cannot register the VFS") }
    }()

    private static let baseSleep = Mutex<(@convention(c) (UnsafeMutablePointer<sqlite3_vfs>?, Int32) -> Int32)?>(nil)

    /// Watches the writer connection of `writer`, whose connections were opened after `install()`;
    /// `onWait` runs on its thread each time it starts a wait for a lock.
    init(writerOf writer: some DatabaseWriter, onWait: @escaping @Sendable () -> Void) async throws {
        watch.withLock { $0.onWait = onWait }
        try await writer.writeWithoutTransaction { db in
            db.trace { _ in self.watch.withLock { $0.thread = pthread_self() } }
        }
        Self.current.withLock { $0 = self }
    }

    /// Stops reporting.
    func stop() {
        Self.current.withLock { if $0 === self { $0 = nil } }
    }

    private func threadSleeps() {
        let onWait = watch.withLock { watch -> (@Sendable () -> Void)? in
            guard let thread = watch.thread, pthread_equal(thread, pthread_self()) != 0 else { return nil }
            return watch.onWait
        }
        onWait?()
    }
}
