/// The medians over rounds, one row per attack, against the "within 2× of unloaded" target.
struct Summary {
    /// Each attack phase with the baseline measured just before it.
    var pairs: [(baseline: PhaseResult, attacked: PhaseResult)]

    static let target = 2.0

    var table: String {
        var lines = [
            "| attack | baseline p50 / p99 ms | attacked p50 / p99 ms | p50 × | p99 × | max ms | failed calls | attacker conns (closed by server) | server CPU | client CPU | verdict |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for attack in Attack.allCases {
            let runs = pairs.filter { $0.attacked.attack == attack }
            guard !runs.isEmpty else { continue }
            let p50Ratio = median(runs.map { $0.attacked.p50 / $0.baseline.p50 })
            let p99Ratio = median(runs.map { $0.attacked.p99 / $0.baseline.p99 })
            let within = p50Ratio <= Self.target && p99Ratio <= Self.target
            let connections = median(runs.map { Double($0.attacked.tally?.connections ?? 0) })
            let closed = median(runs.map { Double($0.attacked.tally?.closedByServer ?? 0) })
            lines.append(
                "| \(attack.rawValue) | \(format(median(runs.map(\.baseline.p50)))) / \(format(median(runs.map(\.baseline.p99))))"
                    + " | \(format(median(runs.map(\.attacked.p50)))) / \(format(median(runs.map(\.attacked.p99))))"
                    + " | \(format(p50Ratio)) | \(format(p99Ratio)) | \(format(median(runs.map(\.attacked.max))))"
                    + " | \(runs.map(\.attacked.sample.failed).reduce(0, +))"
                    + " | \(Int(connections)) (\(Int(closed))) | \(cpu(runs.map(\.baseline.serverCPU))) → \(cpu(runs.map(\.attacked.serverCPU)))"
                    + " | \(cpu(runs.map(\.baseline.clientCPU))) → \(cpu(runs.map(\.attacked.clientCPU)))"
                    + " | \(within ? "within 2×" : "over 2×") |")
        }
        return lines.joined(separator: "\n")
    }

    /// The median CPU use in percent of one core, `?` when not measured.
    private func cpu(_ uses: [Double?]) -> String {
        let measured = uses.compactMap { $0 }
        return measured.isEmpty ? "?" : "\(Int((median(measured) * 100).rounded()))%"
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}
