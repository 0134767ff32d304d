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
    private let body: Body

    enum Body {
        case task(@Sendable (any ServerCallStream, ServerContext) async throws -> Void)
        /// Request message to response message, synchronously.
        case inline(@Sendable ([UInt8], ServerContext) throws -> [UInt8])
        /// Request message to the source of the response, synchronously.
        case inlineSubscribe(@Sendable ([UInt8], ServerContext, ResponseWaker) throws -> any ResponseSource)
    }

    init(descriptor: MethodDescriptor, index: Int, body: Body) {
        self.descriptor = descriptor
        self.index = index
        self.body = body
    }

    /// Whether a transport may answer the call with `answer(request:more:head:waker:)` where
    /// its request completes, instead of running it in a task with `run(_:)`.
    package var runsInline: Bool {
        if case .task = body { return false }
        return true
    }

    /// Runs the call to its end. The handler runs in a child task while this task waits for
    /// the call to be done; an abort (client reset, deadline, lost connection) cancels the
    /// handler. Errors become the call's status. (Inline routes run this way too, for
    /// transports that answer every call from a task.)
    package func run(_ stream: any ServerCallStream) async {
        let context = ServerContext(method: descriptor, head: stream.head)
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in
                do {
                    switch body {
                    case .task(let body):
                        try await body(stream, context)
                    case .inline, .inlineSubscribe:
                        let request = try await Route.singleRequest(from: stream)
                        switch answer(request: request, context: context, waker: { ResponseWaker(stream: stream) }) {
                        case .finished(let message, let initialMetadata, let trailers):
                            stream.finish(lastMessage: message, initialMetadata: initialMetadata, trailers: trailers)
                        case .source(let source, let initialMetadata):
                            stream.attach(source, initialMetadata: initialMetadata)
                        }
                    }
                } catch {
                    stream.finish(
                        lastMessage: nil,
                        initialMetadata: context.initialMetadata,
                        trailers: ResponseTrailers(error: RPCError(mapping: error))
                    )
                }
            }
            await stream.waitUntilDone()
            group.cancelAll()
        }
    }

    /// Answers an inline call (`runsInline`) whose request is complete: `request` is its first
    /// message, if any, and `more` whether another followed; `waker` makes the waker of the
    /// stream's source, for a subscription. Errors become the answer's status.
    package func answer(request: [UInt8]?, more: Bool, head: RequestHead, waker: () -> ResponseWaker) -> InlineAnswer {
        let context = ServerContext(method: descriptor, head: head)
        do {
            return answer(request: try Route.singleRequest(request, more: more), context: context, waker: waker)
        } catch {
            return .finished(message: nil, initialMetadata: context.initialMetadata, trailers: ResponseTrailers(error: error))
        }
    }

    private func answer(request: [UInt8], context: ServerContext, waker: () -> ResponseWaker) -> InlineAnswer {
        do {
            switch body {
            case .task:
                preconditionFailure("\(descriptor.path) does not run inline")
            case .inline(let body):
                let response = try body(request, context)
                return .finished(message: response, initialMetadata: context.initialMetadata, trailers: .ok(context.trailingMetadata))
            case .inlineSubscribe(let body):
                return .source(try body(request, context, waker()), initialMetadata: context.initialMetadata)
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

/// How an inline call goes on.
package enum InlineAnswer: Sendable {
    /// The whole response: the message (none when the call failed), then the trailers.
    case finished(message: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers)
    /// Headers with `initialMetadata`, then whatever the transport pulls from `source`.
    case source(any ResponseSource, initialMetadata: Metadata)
}
