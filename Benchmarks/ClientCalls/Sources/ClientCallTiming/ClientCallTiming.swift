import CatalogKit

/// Microseconds a call, over `calls` sequential GetItem {"id": 42} calls of `client`.
public func microsecondsPerCall(_ client: CatalogClient, calls: Int) async throws -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<calls {
        let item = try await client.items.get(id: 42)
        precondition(item.id == 42)
    }
    let elapsed = start.duration(to: clock.now)
    return (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(calls)
}

/// The median of `values`.
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Times `first` and `second` after a warm-up of each: `rounds` rounds of `calls` calls, the
/// two taking turns going first; prints a line a timing (`round=R LABEL_KEY=LABEL
/// us_per_call=…`) and returns the medians of each.
public func compare(
    _ first: (label: String, client: CatalogClient),
    _ second: (label: String, client: CatalogClient),
    labelKey: String = "target",
    rounds: Int,
    calls: Int
) async throws -> (first: Double, second: Double) {
    _ = try await microsecondsPerCall(first.client, calls: calls)
    _ = try await microsecondsPerCall(second.client, calls: calls)
    var times: [String: [Double]] = [:]
    for round in 1...rounds {
        for (label, client) in round % 2 == 1 ? [first, second] : [second, first] {
            let microseconds = try await microsecondsPerCall(client, calls: calls)
            times[label, default: []].append(microseconds)
            print("round=\(round) \(labelKey)=\(label) us_per_call=\((microseconds * 100).rounded() / 100)")
        }
    }
    return (median(times[first.label] ?? []), median(times[second.label] ?? []))
}
