import Logging
import PostgresNIO

extension PostgresConnection {
    /// Runs `body` between `BEGIN` and `COMMIT` (`ROLLBACK` when `commit` is false), each
    /// statement a bounded `roundTrip`; rolls back when `body` throws. A `BEGIN` that finds the
    /// connection lost throws `ConnectionLostBeforeUse`.
    ///
    /// postgres-nio's `withTransaction` sends its `BEGIN`, `COMMIT` and `ROLLBACK` unbounded, so
    /// transactions are run here. A connection that cannot roll back (lost, silent, cancelled)
    /// is closed, which rolls back too, so that the pool never lends one left in a transaction.
    func transaction<T>(
        commit: Bool = true, timeout: Duration, logger: Logger, _ body: () async throws -> T
    ) async throws -> T {
        do {
            try await roundTrip("BEGIN", timeout: timeout, logger: logger)
        } catch where PostgresCatalogStore.isConnectionLost(error) {
            throw ConnectionLostBeforeUse(cause: error)
        }
        let result: T
        do {
            result = try await body()
        } catch {
            await rollBack(timeout: timeout, logger: logger)
            throw error
        }
        if commit {
            try await roundTrip("COMMIT", timeout: timeout, logger: logger)
        } else {
            await rollBack(timeout: timeout, logger: logger)
        }
        return result
    }

    private func rollBack(timeout: Duration, logger: Logger) async {
        do {
            try await roundTrip("ROLLBACK", timeout: timeout, logger: logger)
        } catch {
            closeWithoutWaiting()
        }
    }
}
