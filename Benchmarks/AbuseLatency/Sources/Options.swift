/// The command line: `abuse-latency --port 50051 [--seconds 4] [--rounds 3] [--attackers 2]
/// [--lanes 2] [--interval-ms 2] [--attacks rapid-reset,ping-flood,…] [--server-pid PID]
/// [--attacker-cpu N]`.
struct Options {
    var port = 50051
    /// How long the honest client measures in each phase.
    var seconds = 4.0
    var rounds = 3
    /// Attacker threads (one connection at a time each) per attack.
    var attackers = 2
    /// Honest connections, each making one call at a time.
    var lanes = 2
    /// Pause between the starts of one lane's calls.
    var intervalMilliseconds = 2.0
    var attacks = Attack.allCases
    /// The server's process, whose CPU use each phase reports when given.
    var serverPID: Int32?
    /// The core the attacker threads keep to, when given: with the server and the honest client
    /// kept off it (`taskset`), the attackers' own CPU use no longer slows them, as if the
    /// attackers were another machine.
    var attackerCPU: Int?

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            switch flag {
            case "--port": port = try Self.parse(value, flag)
            case "--seconds": seconds = try Self.parse(value, flag)
            case "--rounds": rounds = try Self.parse(value, flag)
            case "--attackers": attackers = try Self.parse(value, flag)
            case "--lanes": lanes = try Self.parse(value, flag)
            case "--interval-ms": intervalMilliseconds = try Self.parse(value, flag)
            case "--server-pid": serverPID = try Self.parse(value, flag)
            case "--attacker-cpu": attackerCPU = try Self.parse(value, flag)
            case "--attacks":
                attacks = try value.split(separator: ",").map { name throws(UsageError) in
                    guard let attack = Attack(rawValue: String(name)) else {
                        throw UsageError(description: "unknown attack \(name); known: \(Attack.allCases.map(\.rawValue))")
                    }
                    return attack
                }
            default: throw UsageError(description: "unknown option \(flag)")
            }
        }
    }

    private static func parse<T: LosslessStringConvertible>(_ value: String, _ flag: String) throws(UsageError) -> T {
        guard let parsed = T(value) else { throw UsageError(description: "\(flag): not a number: \(value)") }
        return parsed
    }
}
