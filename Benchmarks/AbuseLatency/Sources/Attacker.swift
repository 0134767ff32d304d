import Foundation

/// What the server did to one phase's attacker connections.
struct AttackerTally: Sendable {
    var connections = 0
    /// GOAWAY frames received (slow readers and churners never read, so see none).
    var goAways = 0
    var closedByServer = 0
    /// Connections whose sends blocked for a second: the server stopped reading them.
    var stalled = 0
    /// Connects that failed (refused, or no local port left).
    var failedConnects = 0

    static func + (lhs: Self, rhs: Self) -> Self {
        AttackerTally(
            connections: lhs.connections + rhs.connections, goAways: lhs.goAways + rhs.goAways,
            closedByServer: lhs.closedByServer + rhs.closedByServer, stalled: lhs.stalled + rhs.stalled,
            failedConnects: lhs.failedConnects + rhs.failedConnects)
    }
}

/// Plays one attack on fresh connections, one after another, until a deadline. Each attacker
/// has a thread of its own, since its sockets block.
enum Attacker {
    /// Runs `count` attackers, each on its own thread, and adds up their tallies.
    static func run(_ attack: Attack, count: Int, port: Int, until deadline: ContinuousClock.Instant) async -> AttackerTally {
        await withTaskGroup(of: AttackerTally.self) { group in
            for _ in 0..<count {
                group.addTask { await onThread { play(attack, port: port, until: deadline) } }
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
            attack.play(on: socket, until: deadline)
            tally.goAways += socket.scanner.goAways
            switch socket.state {
            case .open: break
            case .closedByServer: tally.closedByServer += 1
            case .stalled: tally.stalled += 1
            }
        }
        return tally
    }

    private static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
