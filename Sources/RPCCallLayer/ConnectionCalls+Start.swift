import RPCCore

/// Starting calls: a complete request head becomes a refusal, a rejection, an inline call or a
/// call for the connection's task.
extension ConnectionCalls {
    package func endRequest(on stream: CallStream) {
        stream.receiveEndOfStream()
        queueInlineAnswer(for: stream)
    }

    /// Notes an inline call whose request is complete; it is answered once the read that
    /// completed it is processed, so that a call the same read also cancelled (a rapid reset)
    /// costs no handler and no response.
    func queueInlineAnswer(for stream: CallStream) {
        if stream.inlineRequestIsComplete { readyInlineCalls.append(stream) }
    }

    package func answerReadyInlineCalls() {
        guard !readyInlineCalls.isEmpty else { return }
        defer { readyInlineCalls.removeAll(keepingCapacity: true) }
        guard let frontEnd, let wakeQueue, let loop, frontEnd.isOpen else { return }
        for stream in readyInlineCalls {
            stream.startInlineCall(on: self, frontEnd: frontEnd, wakeQueue: wakeQueue, loop: loop)
            account(stream)
        }
    }

    /// Starts the call whose request head `headers` is complete on `stream`, or answers it at
    /// once: over the call rate or the buffer budgets, rejected by the protocol's checks or the
    /// authorizer.
    package func startCall(on stream: CallStream, headers: RequestHeaders) {
        guard let frontEnd, let loop, let wakeQueue else { return }
        if cors.isEnabled {
            if headers.method == "OPTIONS" {
                stream.answerPreflight([(":status", "204")] + cors.preflightFields(origin: headers.origin), frontEnd: frontEnd)
                return
            }
            stream.corsFields = cors.responseFields(origin: headers.origin)
        }
        if headers.method == "GET", let path = headers.path, let resource = configuration.resourceTable.entry(for: path) {
            let cached = headers.metadata.first("if-none-match") == resource.etag
            stream.answerResource(cached ? resource.notModifiedFields : resource.fields, body: cached ? nil : resource.body, frontEnd: frontEnd)
            return
        }
        if callRate?.admit() == false, let trailers = callRate?.refusal {
            answer(stream, RequestValidation.refuse(headers, with: trailers, router: router), path: headers.path)
            return
        }
        // Bytes that came before this header block in the same read may have pushed the connection
        // over its budget: its largest calls end first, as they would at the end of the read, so
        // a new call is refused only when what is held cannot be brought within the budget.
        shedOverBudget()
        if buffered.isOverBudget {
            answer(stream, RequestValidation.refuse(headers, with: overBudgetTrailers, router: router), path: headers.path)
            return
        }
        let accepted: RequestValidation.Accepted
        do {
            accepted = try RequestValidation.validate(headers, router: router, peer: peer, connection: connection, recentRoute: recentRoute)
        } catch {
            answer(stream, error, path: headers.path)
            return
        }
        recentRoute = (accepted.head.path, accepted.route)
        if let deadline = accepted.head.deadline {
            stream.armDeadline(on: loop, at: deadline, connection: self)
        }
        if accepted.route.runsInline {
            stream.start(
                accepted, call: nil, maxMessageSize: configuration.maxReceiveMessageSize,
                detailNames: configuration.errorDetailNames, metrics: metrics.method(for: accepted.route))
            return
        }
        let responder = CallResponder(stream: stream, connection: self, wakeQueue: wakeQueue, loop: loop)
        let call = ServerCall(head: accepted.head, route: accepted.route, stream: stream, responder: responder)
        stream.start(
            accepted, call: call, maxMessageSize: configuration.maxReceiveMessageSize,
            detailNames: configuration.errorDetailNames, metrics: metrics.method(for: accepted.route))
        if taskCalls == nil { taskCalls = tasks.start(executor: loop.taskExecutor) }
        guard case .enqueued = taskCalls?.yield(call) else {
            stream.close()
            frontEnd.reset(stream, .refused)
            return
        }
    }

    /// The route at `path`, looked up once for the request: the validation that follows finds it
    /// as the connection's recent route.
    package func route(at path: String) -> Route? {
        if let recentRoute, recentRoute.path == path { return recentRoute.route }
        guard let route = router.route(for: path) else { return nil }
        recentRoute = (path, route)
        return route
    }

    /// Answers a call to `path` that does not start with `rejected`, trailers-only.
    package func answer(_ stream: CallStream, _ rejected: RequestValidation.Rejected, path: String?) {
        guard let frontEnd else { return }
        let path = path ?? ""
        stream.rejected(
            rejected, path: path, detailNames: configuration.errorDetailNames, metrics: metrics.method(forPath: path),
            frontEnd: frontEnd)
    }
}
