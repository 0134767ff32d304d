import Foundation

/// Runs blocking work (the raw client's socket reads and writes) on a thread of its own, so
/// that it never holds one of the few threads of Swift's cooperative pool, which the server's
/// handlers and the other tests need meanwhile.
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
