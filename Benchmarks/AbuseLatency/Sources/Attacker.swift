import Foundation

/// What the server did to one phase's attacker connections.
struct AttackerTally: Sendable {
    var connections = 0
    /// Calls sent whole (see `Attack.play`).
    var requests = 0
    /// GOAWAY frames received (slow readers and churners never read, so see none).
    var goAways = 0
    var closedByServer = 0
    /// Connections whose sends blocked for a second: the server stopped reading them.
    var stalled = 0
    /// Connects that failed (refused, or no local port left).
    var failedConnects = 0

    static func + (lhs: Self, rhs: Self) -> Self {
        AttackerTally(
            connections: lhs.connections + rhs.connections, requests: lhs.requests + rhs.requests, goAways: lhs.goAways + rhs.goAways,
            closedByServer: lhs.closedByServer + rhs.closedByServer, stalled: lhs.stalled + rhs.stalled,
            failedConnects: lhs.failedConnects + rhs.failedConnects)
    }
}

/// Plays one attack on fresh connections, one after another, until a deadline. Each attacker
/// has a thread of its own, since its sockets block.
enum Attacker {
    /// Runs `count` attackers, each on its own thread (kept to core `cpu` when given), and adds
    /// up their tallies.
    static func run(
        _ attack: Attack, count: Int, port: Int, cpu: Int?, until deadline: ContinuousClock.Instant
    ) async -> AttackerTally {
        await withTaskGroup(of: AttackerTally.self) { group in
            for _ in 0..<count {
                group.addTask {
                    await onThread {
                        if let cpu { keepThread(to: cpu) }
                        return play(attack, port: port, until: deadline)
                    }
                }
            }
            return await group.reduce(AttackerTally(), +)
        }
    }

    private static func play(_ attack: Attack, port: Int, until deadline: ContinuousClock.Instant) -> AttackerTally {
        var tally = AttackerTally()
        while ContinuousClock.now < deadline {
            guard let socket = RawSocket(port: port) else {
                tally.failedConnects += 1
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            tally.connections += 1
            tally.requests += attack.play(on: socket, until: deadline)
            tally.goAways += socket.scanner.goAways
            switch socket.state {
            case .open: break
            case .closedByServer: tally.closedByServer += 1
            case .stalled: tally.stalled += 1
            }
        }
        return tally
    }

    /// Keeps the calling thread to one core (on Linux, pid 0 names the calling thread).
    /// `sched_setaffinity` is looked up at run time: Swift's Glibc module leaves it out.
    private static func keepThread(to cpu: Int) {
        typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
        guard let symbol = dlsym(nil, "sched_setaffinity") else { fatalError("no sched_setaffinity") }
        var set = cpu_set_t()
        withUnsafeMutableBytes(of: &set) { $0[cpu / 8] |= UInt8(1) << (cpu % 8) }
        let status = withUnsafeBytes(of: &set) {
            unsafeBitCast(symbol, to: SetAffinity.self)(0, MemoryLayout<cpu_set_t>.size, $0.baseAddress!)
        }
        guard status == 0 else { fatalError("cannot keep an attacker to core \(cpu): errno \(errno)") }
    }

    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
