import Foundation
import NIOCore

/// How many event loops catalogd runs: one per core it may run on.
///
/// NIO sizes its singleton group from the cgroup's limits, else from every online core. A
/// process kept to fewer cores by an affinity mask (`taskset`, `numactl`, `docker --cpuset-cpus`
/// without a cgroup quota) would then run more loops than it has cores, and its loops would
/// take turns on a core through the kernel's scheduler, each waiting out the others' time
/// slices, instead of taking turns within one loop.
enum EventLoopCount {
    /// Sets NIO's singleton group size to the cores of this thread's affinity mask when they
    /// are fewer than NIO's own count. Call from the main thread before anything uses the
    /// singleton group.
    static func fitToAffinity() {
        if let count = suggestion(
            affinityCores: affinityCoreCount(), systemCores: System.coreCount,
            environment: ProcessInfo.processInfo.environment)
        {
            NIOSingletons.groupLoopCountSuggestion = count
        }
    }

    /// The loop count to suggest to NIO, or nil to leave its own: the affinity mask's cores
    /// when fewer than `systemCores`, unless `NIO_SINGLETON_GROUP_LOOP_COUNT` (the operator's
    /// choice) is set.
    static func suggestion(affinityCores: Int?, systemCores: Int, environment: [String: String]) -> Int? {
        guard environment["NIO_SINGLETON_GROUP_LOOP_COUNT"] == nil, let affinityCores,
            affinityCores >= 1, affinityCores < systemCores
        else { return nil }
        return affinityCores
    }

    /// The cores in the calling thread's CPU affinity mask (a new thread inherits its
    /// creator's), or nil when it cannot be read. `sched_getaffinity` is looked up at run time:
    /// Swift's Glibc module leaves it out.
    static func affinityCoreCount() -> Int? {
        #if os(Linux)
        typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        guard let symbol = dlsym(nil, "sched_getaffinity") else { return nil }
        var set = cpu_set_t()
        let status = withUnsafeMutableBytes(of: &set) {
            unsafeBitCast(symbol, to: GetAffinity.self)(0, MemoryLayout<cpu_set_t>.size, $0.baseAddress!)
        }
        guard status == 0 else { return nil }
        return withUnsafeBytes(of: &set) { $0.reduce(0) { $0 + $1.nonzeroBitCount } }
        #else
        return nil
        #endif
    }
}
