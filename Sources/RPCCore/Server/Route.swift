/// One registered method and its type-erased body.
///
/// A class: a call's route is handed along several times on its way to the handler, and a
/// copy of a struct would retain each of its strings and closures every time.
package final class Route: Sendable {
    /// The method this route serves.
    package let descriptor: MethodDescriptor
    /// The route's place in registration order (0, 1, 2, …): a dense key for tables kept per
    /// method, such as a transport's metrics, so that a call needs no lookup by path.
    package let index: Int
    /// How the route's calls run (see `ExecutionPolicy`).
    package let policy: ExecutionPolicy
    private let core: Core
    /// What runs around the handler, the first outermost (the router's).
    private let interceptors: [any ServerInterceptor]

    /// The one shape of every handler (see `MethodHandler`): it reads the call's request from
    /// the stream and writes its response there; what it throws becomes the call's status.
    typealias Body = @Sendable (any ServerCallStream, ServerContext) async throws -> Void

    /// The same handler when it was written without `async`: given the call's one request
    /// message, it has its answer (a message, or the source of a stream) when it returns.
    typealias Immediate = @Sendable ([UInt8], ServerContext, () -> ResponseWaker) throws -> ImmediateAnswer

    /// What an `Immediate` handler answers with.
    enum ImmediateAnswer {
        case message([UInt8])
        case source(any ResponseSource)
    }

    /// A handler's core: its `Body`, and its `Immediate` form when it has one.
    struct Core: Sendable {
        let body: Body
        let immediate: Immediate?

        init(_ body: @escaping Body) {
            self.body = body
            self.immediate = nil
        }

        /// The core of a handler written without `async`: its `Body` reads the request and
        /// answers what `immediate` makes of it.
        init(immediate: @escaping Immediate) {
            self.immediate = immediate
            self.body = { stream, context in
                let request = try await Route.singleRequest(from: stream)
                switch try immediate(request, context, { ResponseWaker(stream: stream) }) {
                case .message(let message):
                    stream.finish(lastMessage: message, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
                case .source(let source):
                    stream.attach(source, initialMetadata: context.initialMetadata)
                }
            }
        }
    }

    init(descriptor: MethodDescriptor, index: Int, policy: ExecutionPolicy, core: Core, interceptors: [any ServerInterceptor]) {
        self.descriptor = descriptor
        self.index = index
        self.policy = policy
        self.core = core
        self.interceptors = interceptors
    }

    /// The same route with `interceptors` around its handler.
    func intercepted(by interceptors: [any ServerInterceptor]) -> Route {
        Route(descriptor: descriptor, index: index, policy: policy, core: core, interceptors: interceptors)
    }

    /// Whether the transport starts the call where its request completes (`ExecutionPolicy.inline`).
    package var runsInline: Bool { policy == .inline }

    /// Whether an inline call can be answered with `answer(request:more:head:waker:)`, with
    /// no task: its handler was written without `async`, and no interceptor runs around it.
    package var answersImmediately: Bool { core.immediate != nil && interceptors.isEmpty }

    /// Runs the call to its end, for a transport that gives each call a task of its own and
    /// waits in it: the handler runs in a child task (see `serve(_:)`) while this task waits
    /// for the call to be done; an abort (client reset, deadline, lost connection) cancels the
    /// handler.
    package func run(_ stream: any ServerCallStream) async {
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in await serve(stream) }
            await stream.waitUntilDone()
            group.cancelAll()
        }
    }

    /// Runs the handler in the current task: what it throws ends the call with its status. The
    /// caller cancels the task when the call is aborted; an inline call's transport starts this
    /// where the request completes, so a handler that does not suspend answers before it returns.
    package func serve(_ stream: any ServerCallStream) async {
        let context = ServerContext(method: descriptor, head: stream.head)
        do {
            if interceptors.isEmpty {
                try await core.body(stream, context)
            } else {
                try await interceptors.run(context) { try await core.body(stream, context) }
            }
        } catch {
            stream.finish(
                lastMessage: nil, initialMetadata: context.initialMetadata, trailers: ResponseTrailers(error: RPCError(mapping: error)))
        }
    }

    /// Answers an inline call whose handler was written without `async` (`answersImmediately`)
    /// and whose request is complete: `request` is its first message, if any, and `more`
    /// whether another followed; `waker` makes the waker of the stream's source, for a
    /// subscription. Errors become the answer's status.
    package func answer(request: [UInt8]?, more: Bool, head: RequestHead, waker: () -> ResponseWaker) -> InlineAnswer {
        let context = ServerContext(method: descriptor, head: head)
        do {
            guard let immediate = core.immediate else { preconditionFailure("\(descriptor.path) has no immediate answer") }
            switch try immediate(try Route.singleRequest(request, more: more), context, waker) {
            case .message(let message):
                return .finished(message: message, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
            case .source(let source):
                return .source(source, initialMetadata: context.initialMetadata)
            }
        } catch {
            return .finished(
                message: nil, initialMetadata: context.initialMetadata, trailers: ResponseTrailers(error: RPCError(mapping: error)))
        }
    }

    /// The one message of a unary request, read from `stream`.
    static func singleRequest(from stream: any ServerCallStream) async throws(RPCError) -> [UInt8] {
        guard let message = try await stream.receive() else { return try singleRequest(nil, more: false) }
        let more = try await stream.receive() != nil
        return try singleRequest(message, more: more)
    }

    /// The one message of a unary request: `first`, with `more` telling whether another followed.
    static func singleRequest(_ first: [UInt8]?, more: Bool) throws(RPCError) -> [UInt8] {
        guard let first else {
            throw RPCError(.invalidArgument, "the call has no request message", detail: ErrorDetail(reason: "missingMessage"))
        }
        if more {
            throw RPCError(
                .invalidArgument,
                "a \(StreamingKind.unary) request must hold exactly one message",
                detail: ErrorDetail(reason: "tooManyMessages")
            )
        }
        return first
    }
}

/// How an inline call answered at once (`Route.answer(request:more:head:waker:)`) goes on.
package enum InlineAnswer: Sendable {
    /// The whole response: the message (none when the call failed), then the trailers.
    case finished(message: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers)
    /// Headers with `initialMetadata`, then whatever the transport pulls from `source`.
    case source(any ResponseSource, initialMetadata: Metadata)
}
