import CatalogKit
import ClientCallTiming
import Foundation

// session-benchmark PORT [ROUNDS] [N]: a filter action's round trip, N actions one after
// another on one connection to the catalogd on 127.0.0.1:PORT, two ways taking turns going
// first: `select`, the unary Filters/Select answered with the new state, against `session`,
// the same selection sent on an open Filters/Session and answered by its tagged change (what a
// screen waits for either way). Each action toggles between the filter's first two options, so
// every one changes the filter. Prints one line a round, then the medians and their ratio.

let arguments = CommandLine.arguments
guard arguments.count >= 2, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: session-benchmark PORT [ROUNDS] [N]\n".utf8))
    exit(2)
}
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let actions = arguments.count > 3 ? Int(arguments[3]) ?? 5_000 : 5_000

/// The two ways of making the same actions.
struct Actions: Sendable {
    let catalog: CatalogClient
    let options: [Int64]
    let count: Int

    /// Microseconds an action through unary Select.
    func select() async throws -> Double {
        let start = ContinuousClock.now
        for index in 0..<count {
            let state = try await catalog.filters.select("categories", optionId: options[index % 2])
            precondition(state.selectedId == options[index % 2])
        }
        return microseconds(since: start) / Double(count)
    }

    /// Microseconds an action through an open Session.
    func session() async throws -> Double {
        try await catalog.filters.session("categories") { session in
            let draining = Task { for try await _ in session.events {} }
            defer { draining.cancel() }
            let start = ContinuousClock.now
            for index in 0..<count {
                let answer = try await session.perform(.select(optionId: options[index % 2]))
                precondition(answer.kind == .change && answer.state?.selectedId == options[index % 2])
            }
            return microseconds(since: start) / Double(count)
        }
    }

    private func microseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now)
        return Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
    }
}

let catalog = try await CatalogClient.connect(port: port)
let options = try await catalog.filters.get("categories").options.map(\.id)
precondition(options.count >= 2, "the categories filter needs two options")
let bench = Actions(catalog: catalog, options: options, count: actions)

_ = try await bench.select()
_ = try await bench.session()
var times: [String: [Double]] = [:]
for round in 1...rounds {
    for target in round % 2 == 1 ? ["select", "session"] : ["session", "select"] {
        let us = target == "select" ? try await bench.select() : try await bench.session()
        times[target, default: []].append(us)
        print("round=\(round) target=\(target) us_per_action=\((us * 100).rounded() / 100)")
    }
}
let (select, session) = (median(times["select"]!), median(times["session"]!))
print(String(format: "median select %.2f us, session %.2f us, ratio session / select %.3f", select, session, session / select))
await catalog.close()
