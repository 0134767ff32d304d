import CatalogKit
import Foundation
import RPCURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Filters/Watch fan-out through CatalogClient, in the codec given by --codec and over the
// transport given by --transport: defines filter `--filter` with 4 explicit options, opens
// `--subscribers` Watch streams over `--connections` clients (one HTTP/2 connection each, or one
// URLSession each), waits until every stream has synced, then makes
// `--changes` Selects one after the other on one more client, cycling through the options so
// that each one changes the state. The latency of change r at a subscriber is the arrival of its
// first event with revision ≥ r minus the start of the Select that made r (a subscriber that
// skips to a newer state received r with it). Prints one line of JSON: p50_ms, p99_ms, max_ms
// over every (subscriber, change), `all_converged` (whether every subscriber received the last
// revision), and the CPU seconds the server (with --server-pid) and this client spent over the
// Selects. This client decodes every event of every subscriber, on the same cores as the
// server: with many subscribers its own decoding is much of the latency. Exit status 1 when a
// subscriber failed or did not converge, 2 on usage errors.

/// Stops the program with `status`, saying why on standard error.
func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("client-fanout: \(message)\n".utf8))
    exit(status)
}

/// Milliseconds from `start` to `end`.
func milliseconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
    let elapsed = end - start
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15
}

/// The value at quantile `q` of `sorted`; 0 when it is empty.
func percentile(_ sorted: [Double], _ q: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))]
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error)", status: 2)
}
let timeout = Duration.seconds(options.timeoutSeconds)
var configuration = CatalogClient.Configuration.defaults
configuration.codec = options.codec
configuration.defaultCallOptions.timeout = .seconds(10)  // bounds the unary calls, not the watches

/// A client for `--subscribers / --connections` Watch streams over `--transport`.
func watchClient(_ options: Options, _ configuration: CatalogClient.Configuration) async throws -> CatalogClient {
    switch options.transport {
    case .nghttp2:
        return try await CatalogClient.connect(host: options.host, port: options.port, configuration: configuration)
    case .urlsession:
        let session = URLSessionConfiguration.default
        session.httpMaximumConnectionsPerHost = options.subscribers / options.connections + 1
        session.timeoutIntervalForRequest = TimeInterval(options.timeoutSeconds) * 2  // a quiet stream is not a failure
        let transport = URLSessionTransport(
            baseURL: URL(string: "http://\(options.host):\(options.port)")!,
            codec: options.codec == .cbor ? .cbor : .json, configuration: session, errorDetailNames: .catalog)
        return CatalogClient(transport: transport, configuration: configuration)
    }
}

let writer: CatalogClient
var clients: [CatalogClient] = []
do {
    writer = try await CatalogClient.connect(host: options.host, port: options.port, configuration: configuration)
    for _ in 0..<options.connections {
        clients.append(try await watchClient(options, configuration))
    }
} catch {
    fail("cannot connect to \(options.host):\(options.port): \(error)", status: 2)
}

// The options in a cycle starting after the selected one, so that every Select is a change.
let defined: FilterState
do {
    defined = try await writer.filters.define(
        options.filter, title: "Bench", options: (1...4).map { FilterOption(id: Int64($0), title: "Option \($0)") }
    )
} catch {
    fail("Filters/Define \(options.filter): \(error)")
}
let after = defined.options.firstIndex { $0.id == defined.selectedId }.map { $0 + 1 } ?? 0
let cycle = defined.options.indices.map { defined.options[(after + $0) % defined.options.count].id }

/// What one run saw: how long subscribing took, each Select's start and the revision it
/// answered, the server's and this client's CPU over the Selects, and each subscriber's change
/// events.
struct Run {
    var subscribeMilliseconds: Double
    var selects: [(start: ContinuousClock.Instant, revision: Int64)] = []
    var serverCPU: Double?
    var clientCPU: Double?
    var arrivals: [[Arrival]] = []
}

let progress = Progress(subscribers: options.subscribers)
let run = try await withThrowingTaskGroup(of: (Int, [Arrival]).self) { group in
    let subscribeStart = ContinuousClock.now
    for subscriber in 0..<options.subscribers {
        let watch = clients[subscriber % options.connections].filters.watch(options.filter) { _ in progress.interrupted() }
        group.addTask { (subscriber, await follow(watch, subscriber: subscriber, progress: progress)) }
    }
    guard try await wait(upTo: timeout, until: { progress.settled == options.subscribers }) else {
        fail("\(options.subscribers - progress.settled) of \(options.subscribers) subscribers not synced after \(options.timeoutSeconds) s")
    }
    if let failure = progress.failures.first { fail("\(progress.failures.count) subscribers failed; first: \(failure)") }
    var measured = Run(subscribeMilliseconds: milliseconds(from: subscribeStart, to: .now))

    let cpuBefore = options.serverPID.flatMap { ProcessCPU(pid: $0).seconds() }
    let ownCPUBefore = ProcessCPU(pid: getpid()).seconds()
    for change in 0..<options.changes {
        let start = ContinuousClock.now
        do {
            let state = try await writer.filters.select(options.filter, optionId: cycle[change % cycle.count])
            measured.selects.append((start, state.revision))
        } catch {
            fail("Filters/Select \(change + 1) of \(options.changes): \(error)")
        }
    }
    let last = measured.selects.map(\.revision).max()!
    _ = try await wait(upTo: timeout) { progress.reached(last) == options.subscribers }
    if let cpuBefore, let cpuAfter = options.serverPID.flatMap({ ProcessCPU(pid: $0).seconds() }) {
        measured.serverCPU = cpuAfter - cpuBefore
    }
    if let ownCPUBefore, let ownCPUAfter = ProcessCPU(pid: getpid()).seconds() {
        measured.clientCPU = ownCPUAfter - ownCPUBefore
    }

    group.cancelAll()
    measured.arrivals = Array(repeating: [], count: options.subscribers)
    for try await (subscriber, received) in group { measured.arrivals[subscriber] = received }
    return measured
}
await writer.close()
for client in clients { await client.close() }

// Each change against each subscriber's first arrival of it or a later revision.
let (selects, arrivals) = (run.selects, run.arrivals)
let lastRevision = selects.map(\.revision).max()!
var latencies: [Double] = []
var changes = 0
var newest = defined.revision
var cursors = [Int](repeating: 0, count: arrivals.count)
for select in selects where select.revision > newest {
    newest = select.revision
    changes += 1
    for (subscriber, received) in arrivals.enumerated() {
        while cursors[subscriber] < received.count, received[cursors[subscriber]].revision < select.revision { cursors[subscriber] += 1 }
        if cursors[subscriber] < received.count {
            latencies.append(milliseconds(from: select.start, to: received[cursors[subscriber]].instant))
        }
    }
}
latencies.sort()
let converged = arrivals.count { received in (received.last?.revision ?? -1) >= lastRevision }
let lastArrival = arrivals.compactMap { received in received.first { $0.revision >= lastRevision }?.instant }.max()
let allConverged = converged == options.subscribers && progress.failures.isEmpty

var fields: [(String, String)] = [
    ("codec", "\"\(options.codec.rawValue)\""),
    ("transport", "\"\(options.transport.rawValue)\""),
    ("subscribers", "\(options.subscribers)"),
    ("connections", "\(options.connections)"),
    ("changes", "\(options.changes)"),
    ("effective_changes", "\(changes)"),
    ("subscribe_ms", String(format: "%.1f", run.subscribeMilliseconds)),
    ("base_revision", "\(defined.revision)"),
    ("final_revision", "\(lastRevision)"),
    ("total_ms", allConverged ? String(format: "%.1f", milliseconds(from: selects[0].start, to: lastArrival!)) : "null"),
    ("latency_samples", "\(latencies.count)"),
    ("expected_samples", "\(changes * options.subscribers)"),
    ("p50_ms", String(format: "%.2f", percentile(latencies, 0.50))),
    ("p99_ms", String(format: "%.2f", percentile(latencies, 0.99))),
    ("max_ms", String(format: "%.2f", latencies.last ?? 0)),
    ("converged", "\(converged)"),
    ("all_converged", "\(allConverged)"),
    ("interruptions", "\(progress.interruptions)"),
]
if let serverCPU = run.serverCPU { fields.append(("server_cpu_s", String(format: "%.3f", serverCPU))) }
if let clientCPU = run.clientCPU { fields.append(("client_cpu_s", String(format: "%.3f", clientCPU))) }
print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
if !allConverged {
    fail("\(options.subscribers - converged) of \(options.subscribers) subscribers did not receive revision \(lastRevision); \(progress.failures.first ?? "")")
}
