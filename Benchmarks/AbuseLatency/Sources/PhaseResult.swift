import Foundation

/// One phase of a round: the honest client beside `attack`, or alone just before it
/// (`tally == nil`, the baseline).
struct PhaseResult: Sendable {
    var round: Int
    var attack: Attack
    var sample: LatencySample
    var tally: AttackerTally?
    /// The server's CPU time over the phase's wall time (1 = one core busy), when known.
    var serverCPU: Double?
    /// The same for this process: the honest client and the attackers.
    var clientCPU: Double?

    var p50: Double { sample.percentileMilliseconds(0.50) }
    var p90: Double { sample.percentileMilliseconds(0.90) }
    var p99: Double { sample.percentileMilliseconds(0.99) }
    var max: Double { sample.percentileMilliseconds(1) }

    /// One JSON object; with `baseline`, the p50 and p99 ratios to it.
    func jsonLine(baseline: PhaseResult?) -> String {
        var fields = [
            #""round":\#(round)"#, #""attack":"\#(attack.rawValue)""#,
            #""phase":"\#(tally == nil ? "baseline" : "attacked")""#,
            #""p50_ms":\#(format(p50))"#, #""p90_ms":\#(format(p90))"#,
            #""p99_ms":\#(format(p99))"#, #""max_ms":\#(format(max))"#,
            #""calls":\#(sample.latencies.count + sample.failed)"#, #""failed":\#(sample.failed)"#,
            #""reconnects":\#(sample.reconnects)"#,
        ]
        if let serverCPU {
            fields.append(#""server_cpu":\#(format(serverCPU))"#)
        }
        if let clientCPU {
            fields.append(#""client_cpu":\#(format(clientCPU))"#)
        }
        if let tally {
            fields += [
                #""attacker_connections":\#(tally.connections)"#, #""attacker_requests":\#(tally.requests)"#,
                #""closed_by_server":\#(tally.closedByServer)"#,
                #""goaways":\#(tally.goAways)"#, #""stalled":\#(tally.stalled)"#,
                #""failed_connects":\#(tally.failedConnects)"#,
            ]
        }
        if let baseline {
            fields += [#""p50_ratio":\#(format(p50 / baseline.p50))"#, #""p99_ratio":\#(format(p99 / baseline.p99))"#]
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}

/// `value` with two decimals, `null` when it is not a number (a ratio to a zero baseline).
func format(_ value: Double) -> String {
    value.isFinite ? String(format: "%.2f", value) : "null"
}
