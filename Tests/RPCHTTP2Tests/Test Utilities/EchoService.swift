import Dispatch
import RPCCore
import Synchronization

/// `echo.v1.Echo`, the test service (the grpcio scripts in Python/ implement the same).
enum Echo {
    static let get = UnaryMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Get")
    static let expand = ServerStreamingMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Expand")
    /// Like `expand`, from a pulled `ResponseSource` (no task per stream); reports
    /// `cancelled(text)` when the stream closes before the source ended it.
    static let count = ServerStreamingMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Count")
    /// Like `count`, subscribed inline: no task even while the stream starts.
    static let countInline = ServerStreamingMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "CountInline")
    /// Like `get`, registered inline: answered on the event loop, with no task.
    static let quick = UnaryMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Quick")
    /// Like `quick`, answered through a responder: at once, or after `sleepMs` from another thread.
    static let later = UnaryMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Later")
    /// Never answers; reports to the probe when it starts and when it is cancelled.
    static let hang = UnaryMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Hang")
    /// Never answers and ignores cancellation: returns only once the probe releases it
    /// (`releaseStuckHandlers()`), and reports `.released` then.
    static let stuck = UnaryMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Stuck")
    /// Client streaming: answers the first character of each request's text, joined, and their
    /// count as `index` (so that many large requests make a small answer). A
    /// request with a `status` fails the call there, before the requests end; one with
    /// `sleepMs` makes the handler wait that long before it reads the next (a slow reader), one
    /// with `holdUntilReleased` until the probe releases it.
    /// Records `started` with the first text, and `cancelled` when cancelled.
    static let collect = ClientStreamingMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Collect")
    /// Bidirectional: answers each request at once with its text and its index in the stream;
    /// a request with a `status` fails the call there. Records `cancelled` with the first text
    /// when the call is cancelled.
    static let chat = BidirectionalStreamingMethod<EchoRequest, EchoResponse>(service: "echo.v1.Echo", method: "Chat")
}

struct EchoRequest: Codable, Sendable, Equatable {
    var text: String
    var count: Int?
    var status: Int?
    var message: String?
    var reason: String?
    var trailers: [String: String]?
    var sleepMs: Int?
    /// Echo.collect waits after this request until the probe releases it (`releaseStuckHandlers()`).
    var holdUntilReleased: Bool?

    init(text: String, count: Int? = nil, status: Int? = nil, message: String? = nil, reason: String? = nil,
         trailers: [String: String]? = nil, sleepMs: Int? = nil, holdUntilReleased: Bool? = nil) {
        self.text = text
        self.count = count
        self.status = status
        self.message = message
        self.reason = reason
        self.trailers = trailers
        self.sleepMs = sleepMs
        self.holdUntilReleased = holdUntilReleased
    }
}

struct EchoResponse: Codable, Sendable, Equatable {
    var text: String
    var index: Int?
}

/// What handlers report to the test that drives them.
enum ProbeEvent: Sendable, Equatable {
    case started(String)
    case cancelled(String)
    case released(String)
}

/// Events from handlers, in order, for tests to await instead of sleeping.
///
/// Every event is kept until a `next(where:)` claims it, so waiting for one event never loses
/// another that came first, and a wait that times out leaves the rest usable.
final class EchoProbe: Sendable {
    private struct Waiter {
        let predicate: @Sendable (ProbeEvent) -> Bool
        let continuation: CheckedContinuation<ProbeEvent?, Never>
    }

    private struct Events {
        var unclaimed: [ProbeEvent] = []
        var waiters: [Int: Waiter] = [:]
        var abandoned: Set<Int> = []
        var nextWaiterID = 0
    }

    private let events = Mutex(Events())
    private let written = Mutex(0)
    private let stuck = Mutex<[CheckedContinuation<Void, Never>]>([])

    /// Messages `Expand` handlers have written so far.
    var writtenCount: Int { written.withLock { $0 } }

    func recordWrite() { written.withLock { $0 += 1 } }

    /// Waits until `Expand` stops making progress (no write for `quiet`) and returns the count.
    /// Observing that nothing happens can only be done over time: this polls.
    func writtenCountOnceStalled(quiet: Duration = .milliseconds(500), limit: Duration = .seconds(30)) async throws -> Int {
        let clock = ContinuousClock()
        let start = clock.now
        var last = writtenCount
        while start.duration(to: clock.now) < limit {
            try await Task.sleep(for: quiet)
            let now = writtenCount
            if now == last && now > 0 { return now }
            last = now
        }
        return last
    }

    func record(_ event: ProbeEvent) {
        let claimant = events.withLock { events -> CheckedContinuation<ProbeEvent?, Never>? in
            let match = events.waiters.keys.sorted().first { events.waiters[$0]!.predicate(event) }
            guard let match else {
                events.unclaimed.append(event)
                return nil
            }
            return events.waiters.removeValue(forKey: match)?.continuation
        }
        claimant?.resume(returning: event)
    }

    /// Waits, whatever happens to the task, until `releaseStuckHandlers()`.
    func waitUntilReleased() async {
        await withCheckedContinuation { continuation in stuck.withLock { $0.append(continuation) } }
    }

    /// Lets every `Echo.stuck` handler return.
    func releaseStuckHandlers() {
        for continuation in stuck.withLock({ stuck in defer { stuck = [] }; return stuck }) { continuation.resume() }
    }

    /// Claims the first event, already recorded or still to come, matching `predicate`; `nil`
    /// when none came within `timeout`, so that a missing event fails the test instead of
    /// hanging it. Events that do not match stay for later calls.
    func next(timeout: Duration = .seconds(30), where predicate: @escaping @Sendable (ProbeEvent) -> Bool) async -> ProbeEvent? {
        let id = events.withLock { events in
            defer { events.nextWaiterID += 1 }
            return events.nextWaiterID
        }
        return await withTaskGroup(of: ProbeEvent?.self) { group in
            group.addTask { await self.claim(id, predicate) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                self.abandon(id)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if first != nil { self.abandon(id) }
            return first
        }
    }

    private func claim(_ id: Int, _ predicate: @escaping @Sendable (ProbeEvent) -> Bool) async -> ProbeEvent? {
        await withCheckedContinuation { continuation in
            let answer: ProbeEvent?? = events.withLock { events in
                if events.abandoned.contains(id) { return .some(nil) }
                if let index = events.unclaimed.firstIndex(where: predicate) {
                    return .some(events.unclaimed.remove(at: index))
                }
                events.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
                return .none
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Ends the wait `id` with `nil` if it still waits, or makes sure it never starts.
    private func abandon(_ id: Int) {
        let waiter = events.withLock { events in
            events.abandoned.insert(id)
            return events.waiters.removeValue(forKey: id)
        }
        waiter?.continuation.resume(returning: nil)
    }
}

struct EchoService: RPCService {
    let probe: EchoProbe

    func register(into router: inout Router) {
        router.register(Echo.get, .unary { request, context in try await Self.echo(request, context: context, probe: probe) })
        router.register(Echo.quick, .unary(.inline) { request, context in
            probe.record(.started(request.text))
            if let echo = context.requestMetadata.first("x-echo") {
                // Under the name asked for, when one is: a handler may add any name.
                context.addInitialMetadata(context.requestMetadata.first("x-echo-as") ?? "x-echo", .string(echo))
            }
            try Self.failIfAsked(request, context: context)
            return EchoResponse(text: request.text)
        })
        router.register(Echo.expand, .serverStreaming { request, writer, context in
            for index in 0..<(request.count ?? 0) {
                try await writer.write(EchoResponse(text: request.text, index: index))
                probe.recordWrite()
            }
            try Self.failIfAsked(request, context: context)
        })
        router.register(Echo.count, .serverStreaming(source: { (request: EchoRequest, context, _) -> any ResponseSource in
            CountingSource(request: request, codec: context.contentType.codec, probe: probe)
        }))
        router.register(Echo.countInline, .serverStreaming(.inline, source: { (request: EchoRequest, context, _) -> any ResponseSource in
            CountingSource(request: request, codec: context.contentType.codec, probe: probe)
        }))
        router.register(Echo.later, .unary(.inline) { request, context in try await Self.echo(request, context: context, probe: probe) })
        router.register(Echo.stuck, .unary { request, _ in
            probe.record(.started(request.text))
            await probe.waitUntilReleased()
            probe.record(.released(request.text))
            return EchoResponse(text: request.text)
        })
        router.register(Echo.collect, .clientStreaming { requests, context in
            try await Self.collect(requests, context: context, probe: probe)
        })
        router.register(Echo.chat, .bidirectionalStreaming { requests, responses, context in
            var index = 0
            var first = ""
            do {
                for try await request in requests {
                    if index == 0 { first = request.text }
                    try Self.failIfAsked(request, context: context)
                    try await responses.write(EchoResponse(text: request.text, index: index))
                    index += 1
                }
            } catch {
                if (error as? RPCError)?.code == .cancelled { probe.record(.cancelled(first)) }
                throw error
            }
        })
        router.register(Echo.hang, .unary { request, _ in
            probe.record(.started(request.text))
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                probe.record(.cancelled(request.text))
                throw error
            }
            return EchoResponse(text: request.text)
        })
    }

    /// Echo.get's answer (and Echo.later's, the same run inline): after `sleepMs`, if asked,
    /// recording its start and its cancellation.
    private static func echo(_ request: EchoRequest, context: ServerContext, probe: EchoProbe) async throws -> EchoResponse {
        if let echo = context.requestMetadata.first("x-echo") { context.addInitialMetadata("x-echo", .string(echo)) }
        if let sleepMs = request.sleepMs {
            probe.record(.started(request.text))
            do {
                try await Task.sleep(for: .milliseconds(sleepMs))
            } catch {
                probe.record(.cancelled(request.text))
                throw error
            }
        }
        try failIfAsked(request, context: context)
        return EchoResponse(text: request.text)
    }

    /// Echo.collect's answer.
    private static func collect(
        _ requests: RequestStream<EchoRequest>, context: ServerContext, probe: EchoProbe
    ) async throws -> EchoResponse {
        var text = ""
        var first = ""
        var count = 0
        do {
            for try await request in requests {
                if count == 0 {
                    first = request.text
                    probe.record(.started(first))
                }
                try failIfAsked(request, context: context)
                text += request.text.prefix(1)
                count += 1
                probe.recordWrite()
                if let sleepMs = request.sleepMs { try await Task.sleep(for: .milliseconds(sleepMs)) }
                if request.holdUntilReleased == true { await probe.waitUntilReleased() }
            }
        } catch {
            // An abort ends the request stream with CANCELLED (and cancels a sleeping handler).
            if Task.isCancelled || (error as? RPCError)?.code == .cancelled { probe.record(.cancelled(first)) }
            throw error
        }
        return EchoResponse(text: text, index: count)
    }

    static func trailers(for request: EchoRequest) -> ResponseTrailers {
        var metadata = Metadata()
        for (key, value) in (request.trailers ?? [:]).sorted(by: { $0.key < $1.key }) { metadata.add(key, value) }
        guard let status = request.status, status != 0 else { return .ok(metadata) }
        return ResponseTrailers(
            code: StatusCode(rawValue: status) ?? .unknown, message: request.message ?? "",
            detail: request.reason.map { ErrorDetail(reason: $0) }, metadata: metadata)
    }

    private static func failIfAsked(_ request: EchoRequest, context: ServerContext) throws {
        var metadata = Metadata()
        for (key, value) in (request.trailers ?? [:]).sorted(by: { $0.key < $1.key }) { metadata.add(key, value) }
        if let status = request.status, status != 0 {
            throw RPCError(
                StatusCode(rawValue: status) ?? .unknown,
                request.message ?? "",
                detail: request.reason.map { ErrorDetail(reason: $0) },
                metadata: metadata
            )
        }
        for entry in metadata { context.addTrailingMetadata(entry.key, entry.value) }
    }
}

/// Serves `Echo/Count`: `count` messages pulled one at a time, then the requested trailers.
final class CountingSource: ResponseSource {
    private let request: EchoRequest
    private let codec: any MessageCodec
    private let probe: EchoProbe
    private let state = Mutex((next: 0, ended: false))

    init(request: EchoRequest, codec: any MessageCodec, probe: EchoProbe) {
        self.request = request
        self.codec = codec
        self.probe = probe
    }

    func next() -> ResponsePull {
        let index = state.withLock { state -> Int? in
            guard state.next < (request.count ?? 0) else {
                state.ended = true
                return nil
            }
            defer { state.next += 1 }
            return state.next
        }
        guard let index else { return .end(EchoService.trailers(for: request)) }
        probe.recordWrite()
        return .message(try! codec.encode(EchoResponse(text: request.text, index: index)))
    }

    func streamClosed() {
        if !state.withLock({ $0.ended }) { probe.record(.cancelled(request.text)) }
    }
}

/// Calls `Echo.chat` in lockstep: each of `count` requests (`ping 0`, `ping 1`, …) is sent only
/// once the answer to the one before arrived, so the answers prove full duplex. Returns them.
func chatInLockstep(_ client: RPCClient, count: Int) async throws -> [EchoResponse] {
    let (requests, feed) = AsyncStream.makeStream(of: EchoRequest.self)
    return try await client.bidirectionalStreaming(Echo.chat, requests: { writer in
        for await request in requests { try await writer.write(request) }
    }) { responses in
        var answers: [EchoResponse] = []
        feed.yield(EchoRequest(text: "ping 0"))
        for try await response in responses {
            answers.append(response)
            if answers.count < count { feed.yield(EchoRequest(text: "ping \(answers.count)")) } else { feed.finish() }
        }
        return answers
    }
}
