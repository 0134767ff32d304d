import Foundation

// For each round and each attack: the honest client alone (baseline), then beside the attack;
// one JSON line per phase on standard output, then the medians as a Markdown table.

/// Writes `line` at once, also into a pipe, where `print` would buffer it.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("abuse-latency: \(error)\n".utf8))
    exit(2)
}

let honest = HonestClient(port: options.port, lanes: options.lanes, interval: .microseconds(Int(options.intervalMilliseconds * 1000)))
let phase = Duration.milliseconds(Int(options.seconds * 1000))
/// Time for an attack to get going before the honest client measures, and for the server to
/// settle after it.
let rampUp = Duration.milliseconds(300)

/// Runs the honest client for a phase; also how busy the server (when its PID is known) and
/// this process, attackers included, were.
func measure() async -> (LatencySample, serverCPU: Double?, clientCPU: Double?) {
    let processes = [options.serverPID, getpid()].map { $0.map(ProcessCPU.init) }
    let started = ContinuousClock.now
    let before = processes.map { $0?.seconds() }
    let sample = await honest.run(for: phase)
    let seconds = started.duration(to: .now) / .seconds(1)
    let busy = zip(processes, before).map { process, before in
        before.flatMap { before in process?.seconds().map { ($0 - before) / seconds } }
    }
    return (sample, busy[0], busy[1])
}

_ = await honest.run(for: .seconds(1))  // warm-up: connections, caches, the first calls
var pairs: [(baseline: PhaseResult, attacked: PhaseResult)] = []
for round in 1...options.rounds {
    for attack in options.attacks {
        let (alone, serverCPU, clientCPU) = await measure()
        let baseline = PhaseResult(round: round, attack: attack, sample: alone, serverCPU: serverCPU, clientCPU: clientCPU)
        emit(baseline.jsonLine(baseline: nil))
        let deadline = ContinuousClock.now + rampUp + phase
        async let tally = Attacker.run(attack, count: options.attackers, port: options.port, cpu: options.attackerCPU, until: deadline)
        try? await Task.sleep(for: rampUp)
        let (sample, busyServer, busyClient) = await measure()
        let attacked = PhaseResult(
            round: round, attack: attack, sample: sample, tally: await tally, serverCPU: busyServer, clientCPU: busyClient)
        emit(attacked.jsonLine(baseline: baseline))
        pairs.append((baseline, attacked))
        try? await Task.sleep(for: rampUp)
    }
}
emit(Summary(pairs: pairs).table)
