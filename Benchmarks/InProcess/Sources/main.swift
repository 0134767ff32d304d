import CatalogKit
import CatalogTesting
import Foundation

// in-process-benchmark PORT [ROUNDS] [N]: GetItem {"id": 42} N times one after another through
// a CatalogClient over the InProcessTransport (the demo catalog in this process), and through
// a CatalogClient over nghttp2 to the catalogd listening on 127.0.0.1:PORT (the demo catalog
// too), the two taking turns going first; prints one line a round, then the medians of the
// time a call and their ratio.

let arguments = CommandLine.arguments
guard arguments.count >= 2, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: in-process-benchmark PORT [ROUNDS] [N]\n".utf8))
    exit(2)
}
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let calls = arguments.count > 3 ? Int(arguments[3]) ?? 20_000 : 20_000

/// Microseconds a call, over `calls` sequential GetItem calls.
func time(_ client: CatalogClient) async throws -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<calls {
        let item = try await client.items.get(id: 42)
        precondition(item.id == 42)
    }
    let elapsed = start.duration(to: clock.now)
    return (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(calls)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

let inProcess = try await InProcessCatalog.start(seedDemo: true)
let network = try await CatalogClient.connect(port: port)
_ = try await time(inProcess.client)  // warm both up
_ = try await time(network)
var local: [Double] = []
var loopback: [Double] = []
for round in 1...rounds {
    let order: [(String, CatalogClient)] = round % 2 == 1
        ? [("in-process", inProcess.client), ("nghttp2", network)] : [("nghttp2", network), ("in-process", inProcess.client)]
    for (label, client) in order {
        let microseconds = try await time(client)
        if label == "in-process" { local.append(microseconds) } else { loopback.append(microseconds) }
        print("round=\(round) target=\(label) us_per_call=\(String(format: "%.2f", microseconds))")
    }
}
print(String(format: "median in-process %.2f us, nghttp2 loopback %.2f us, ratio in-process / nghttp2 %.3f", median(local), median(loopback), median(local) / median(loopback)))
await network.close()
await inProcess.close()
