import CatalogAPI
import CatalogStore
import RPCCore

/// One `Filters/Session` call: the first request opens a Watch of its filter, each later one is
/// an action applied in order with the role of the unary call it stands for, and the
/// subscription answers each in its place among the filter's changes (`FilterSubscription`).
///
/// Two loops run: one applies the actions as they arrive, one writes what the subscription
/// has. The first stops reading the client while `answersAhead` answers are unsent (a client
/// that does not read holds its own actions back); the call ends OK once the client
/// half-closed and every action is answered, and with INVALID_ARGUMENT at a malformed action.
struct FilterSessionCall {
    /// The longest `tag`, in characters.
    static let tagLimit = 64
    /// Answers the subscription holds unsent before the session stops reading actions.
    static let answersAhead = 16

    let store: any FilterStore
    let hub: FilterHub

    /// One action of a Session, checked.
    struct Action {
        var tag: String?
        var edit: FilterEdit
        /// The unary call whose role the action needs.
        var method: MethodDescriptor
    }

    func run(
        _ requests: RequestStream<FilterSessionRequest>, _ responses: ResponseStreamWriter<FilterEvent>, _ context: ServerContext
    ) async throws {
        var actions = requests.makeAsyncIterator()
        guard let opening = try await actions.next() else {
            throw RPCError(.invalidArgument, "a Session opens with a message naming its filter, such as {\"filterId\": \"categories\"}")
        }
        let (filterID, options) = try Self.opening(opening)
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let subscription = try await subscribe(filterID, options, context: context, waker: ResponseWaker { wake.yield() })
        defer { subscription.streamClosed() }
        let (taken, take) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let rest = actions  // read by the task below from now on

        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await Self.send(subscription, wakes: wakes, to: responses, sent: take)
                return true
            }
            group.addTask {
                var actions = rest
                var taken = taken.makeAsyncIterator()
                var index = 0
                while let request = try await actions.next() {
                    index += 1
                    try await apply(try Self.action(request, index: index), to: filterID, subscription, context: context)
                    while subscription.unsentAnswers >= Self.answersAhead {
                        guard await taken.next() != nil else { throw CancellationError() }
                    }
                }
                subscription.endOnceAnswered(.ok())
                return false
            }
            // The writer ends the call (the last answer after the half-close, or the
            // subscription's own end); the reader, when it ends first, leaves it to the writer.
            while let writerEnded = try await group.next(), !writerEnded {}
            group.cancelAll()
        }
    }

    /// The subscription, as Watch opens it: on a replica, after catching up when the filter or
    /// the revision resumed from may have been made elsewhere.
    private func subscribe(
        _ filterID: String, _ options: FilterSubscription.Options, context: ServerContext, waker: ResponseWaker
    ) async throws(RPCError) -> FilterSubscription {
        do {
            return try await hub.openSession(filterID: filterID, options, context: context, waker: waker)
        } catch where store.hasOtherWriters && FiltersRPCService.mayBeElsewhere(error) {
            do throws(CatalogError) {
                try await store.catchUp(filterID: filterID)
            } catch {
                throw error.rpcError
            }
            return try await hub.openSession(filterID: filterID, options, context: context, waker: waker)
        }
    }

    /// Applies one action and tells the subscription what it did; a refusal is an answer too.
    private func apply(_ action: Action, to filterID: String, _ subscription: FilterSubscription, context: ServerContext) async throws {
        if let refusal = hub.refusal(of: context.head, for: action.method) {
            subscription.answerAction(tag: action.tag, .refused(refusal))
            return
        }
        subscription.beginAction()
        do {
            let update = try await store.applyFilterEdit(filterID, action.edit)
            subscription.answerAction(tag: action.tag, update.changed ? .changed(update.state) : .unchanged(update.state))
        } catch {
            subscription.answerAction(tag: action.tag, .refused(error.rpcError))
        }
    }

    /// Writes what the subscription has, as the client reads it, until it ends.
    private static func send(
        _ subscription: FilterSubscription, wakes: AsyncStream<Void>, to responses: ResponseStreamWriter<FilterEvent>,
        sent: AsyncStream<Void>.Continuation
    ) async throws {
        var wakes = wakes.makeAsyncIterator()
        while true {
            switch subscription.next() {
            case .message(let bytes):
                try await responses.write(encoded: bytes)
                sent.yield()
            case .idle:
                guard await wakes.next() != nil else { throw CancellationError() }
            case .end(let trailers):
                guard trailers.code == .ok else { throw RPCError(trailers.code, trailers.message, detail: trailers.detail) }
                return
            }
        }
    }

    // MARK: Requests

    /// The filter and Watch options of the opening message.
    static func opening(_ request: FilterSessionRequest) throws(RPCError) -> (String, FilterSubscription.Options) {
        do throws(CatalogError) {
            guard let rawID = request.filterId else {
                throw .invalidField("filterId", "a Session's first message names its filter")
            }
            if let field = actionField(of: request) {
                throw .invalidField(field, "a Session's first message opens it; actions follow it")
            }
            let options = FilterSubscription.Options(
                sinceRevision: try FilterRules.sinceRevision(request.sinceRevision), delivery: request.delivery ?? .latest,
                heartbeatSeconds: try FilterRules.heartbeatSeconds(request.heartbeatSeconds))
            return (try FilterRules.filterID(rawID), options)
        } catch {
            throw error.rpcError
        }
    }

    /// The action of a later message (the `index`th action), checked.
    static func action(_ request: FilterSessionRequest, index: Int) throws(RPCError) -> Action {
        func malformed(_ field: String, _ message: String) -> RPCError {
            CatalogError.invalidField(field, "\(message) (action \(index))").rpcError
        }
        if let field = openingField(of: request) {
            throw malformed(field, "only a Session's first message names the filter and its Watch options")
        }
        if let tag = request.tag, tag.count > tagLimit {
            throw malformed("tag", "at most \(tagLimit) characters, not \(tag.count)")
        }
        var actions: [(FilterEdit, MethodDescriptor)] = []
        if let select = request.select {
            actions.append((.select(optionID: select.optionId, toggle: select.toggle ?? false), FiltersService.select.descriptor))
        }
        if let presentation = request.presentation {
            actions.append((.setPresentation(presentation), FiltersService.setPresentation.descriptor))
        }
        if let toggle = request.togglePresentation {
            guard toggle else { throw malformed("togglePresentation", "must be true when present") }
            actions.append((.togglePresentation, FiltersService.togglePresentation.descriptor))
        }
        guard actions.count == 1, let (edit, method) = actions.first else {
            throw malformed("select", "an action is exactly one of select, presentation and togglePresentation")
        }
        return Action(tag: request.tag, edit: edit, method: method)
    }

    private static func actionField(of request: FilterSessionRequest) -> String? {
        if request.tag != nil { return "tag" }
        if request.select != nil { return "select" }
        if request.presentation != nil { return "presentation" }
        if request.togglePresentation != nil { return "togglePresentation" }
        return nil
    }

    private static func openingField(of request: FilterSessionRequest) -> String? {
        if request.filterId != nil { return "filterId" }
        if request.sinceRevision != nil { return "sinceRevision" }
        if request.delivery != nil { return "delivery" }
        if request.heartbeatSeconds != nil { return "heartbeatSeconds" }
        return nil
    }
}
