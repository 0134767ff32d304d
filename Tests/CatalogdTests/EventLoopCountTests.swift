@testable import catalogd
import Foundation
import NIOCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// catalogd runs one event loop per core its affinity mask allows.
@Suite("Event loops fitted to the CPU affinity mask")
struct EventLoopCountTests {
    @Test("the affinity mask's cores are counted: one on a thread kept to one core")
    func affinityCoreCount() async throws {
        let online = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        let unpinned = try #require(EventLoopCount.affinityCoreCount())
        #expect(unpinned >= 1 && unpinned <= online, "\(unpinned) of \(online) online cores")
        let pinned = await onThread {
            keepThread(to: 0)
            return EventLoopCount.affinityCoreCount()
        }
        #expect(pinned == 1)
    }

    @Test("fewer cores in the mask than NIO counts: that many loops; otherwise, or when the operator chose, NIO's own")
    func suggestion() {
        #expect(EventLoopCount.suggestion(affinityCores: 1, systemCores: 2, environment: [:]) == 1)
        #expect(EventLoopCount.suggestion(affinityCores: 3, systemCores: 8, environment: [:]) == 3)
        #expect(EventLoopCount.suggestion(affinityCores: 2, systemCores: 2, environment: [:]) == nil)
        #expect(EventLoopCount.suggestion(affinityCores: nil, systemCores: 2, environment: [:]) == nil)
        #expect(EventLoopCount.suggestion(affinityCores: 1, systemCores: 2, environment: ["NIO_SINGLETON_GROUP_LOOP_COUNT": "2"]) == nil)
    }

    private func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// Keeps the calling thread to core `cpu` (pid 0 names the calling thread on Linux).
    private func keepThread(to cpu: Int) {
        typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
        let symbol = dlsym(nil, "sched_setaffinity")!
        var set = cpu_set_t()
        withUnsafeMutableBytes(of: &set) { $0[cpu / 8] |= UInt8(1) << (cpu % 8) }
        let status = withUnsafeBytes(of: &set) {
            unsafeBitCast(symbol, to: SetAffinity.self)(0, MemoryLayout<cpu_set_t>.size, $0.baseAddress!)
        }
        precondition(status == 0, "sched_setaffinity failed: errno \(errno)")
    }
}
