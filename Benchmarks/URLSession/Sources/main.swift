import CatalogKit
import Foundation
import RPCURLSession

// urlsession-benchmark PORT [ROUNDS] [N]: GetItem {"id": 42} N times one after another through
// a CatalogClient over URLSessionTransport (JSON, Connect unary over HTTP/1.1) and through a
// CatalogClient over nghttp2 (gRPC over HTTP/2), both to the catalogd listening on
// 127.0.0.1:PORT (the demo catalog), the two taking turns going first; prints one line a
// round, then the medians of the time a call and their ratio.

let arguments = CommandLine.arguments
guard arguments.count >= 2, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: urlsession-benchmark PORT [ROUNDS] [N]\n".utf8))
    exit(2)
}
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let calls = arguments.count > 3 ? Int(arguments[3]) ?? 5_000 : 5_000

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

let urlSession = CatalogClient(transport: URLSessionTransport(baseURL: URL(string: "http://127.0.0.1:\(port)")!))
let nghttp2 = try await CatalogClient.connect(port: port)
_ = try await time(urlSession)  // warm both up
_ = try await time(nghttp2)
var overURLSession: [Double] = []
var overNGHTTP2: [Double] = []
for round in 1...rounds {
    let order: [(String, CatalogClient)] = round % 2 == 1
        ? [("urlsession", urlSession), ("nghttp2", nghttp2)] : [("nghttp2", nghttp2), ("urlsession", urlSession)]
    for (label, client) in order {
        let microseconds = try await time(client)
        if label == "urlsession" { overURLSession.append(microseconds) } else { overNGHTTP2.append(microseconds) }
        print("round=\(round) target=\(label) us_per_call=\(String(format: "%.2f", microseconds))")
    }
}
print(String(
    format: "median urlsession %.2f us, nghttp2 %.2f us, ratio urlsession / nghttp2 %.3f",
    median(overURLSession), median(overNGHTTP2), median(overURLSession) / median(overNGHTTP2)))
await nghttp2.close()
