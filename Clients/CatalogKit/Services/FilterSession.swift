import CatalogAPI
import RPCCore
import Synchronization

/// A filter watched and changed on one stream (`Filters/Session`), for a screen that both
/// shows a filter and changes it; run one with
/// ``FiltersClient/session(_:sinceRevision:delivery:heartbeatSeconds:options:_:)``.
///
/// ``events`` are a Watch's events (a `snapshot` or the changes after `sinceRevision`, then
/// `synced`, then each change), with the answer to each action in its place: the `change` it
/// made, carrying its tag, or an `ack` when it changed nothing. ``perform(_:)`` sends an action
/// and returns that answer, so a view knows which event answered which tap.
///
/// A session does not resume by itself: it ends, and ``events`` throw, when the stream is lost.
/// Actions still unanswered then throw the same error; like a unary write's, their fate is not
/// known. `FilterModel` (CatalogViewModels) resumes from the last revision it showed.
///
/// ```swift
/// try await catalog.filters.session("categories") { session in
///     try await withThrowingTaskGroup { group in
///         group.addTask { for try await event in session.events { if let state = event.state { render(state) } } }
///         _ = try await session.perform(.select(optionId: 3))
///         group.cancelAll()
///     }
/// }
/// ```
public struct FilterSession: Sendable {
    /// What an action asks for.
    public enum Action: Sendable, Hashable {
        /// As ``FiltersClient/select(_:optionId:toggle:options:)``: `nil` selects "all".
        case select(optionId: Int64?, toggle: Bool = false)
        /// As ``FiltersClient/setPresentation(_:to:options:)``.
        case setPresentation(FilterPresentation)
        /// As ``FiltersClient/togglePresentation(_:options:)``.
        case togglePresentation
    }

    /// The session's events, answers included, in the server's order. Read them: they queue
    /// until read.
    public let events: AsyncThrowingStream<FilterEvent, any Error>
    let actions: AsyncStream<FilterSessionRequest>.Continuation
    let answers: SessionAnswerWaiters

    /// Sends `action` after those sent before and returns its answer: the tagged `change` it
    /// made, or an `ack` (its revision the state's) when it changed nothing.
    ///
    /// - Throws: `RPCError`: the refusal the server answered (PERMISSION_DENIED for a reader's
    ///   token, NOT_FOUND `unknownOption`…; the session goes on), or the error that ended the
    ///   session before the answer came.
    public func perform(_ action: Action) async throws -> FilterEvent {
        let answer = try await withCheckedThrowingContinuation { continuation in
            guard let tag = answers.register(continuation) else { return }
            actions.yield(action.request(tag: tag))
        }
        if let error = answer.error { throw error.rpcError }
        return answer
    }
}

extension FilterSession.Action {
    func request(tag: String) -> FilterSessionRequest {
        switch self {
        case .select(let optionId, let toggle):
            FilterSessionRequest(tag: tag, select: .init(optionId: optionId, toggle: toggle ? true : nil))
        case .setPresentation(let presentation):
            FilterSessionRequest(tag: tag, presentation: presentation)
        case .togglePresentation:
            FilterSessionRequest(tag: tag, togglePresentation: true)
        }
    }
}

/// The actions of a session waiting for their answers, by tag.
final class SessionAnswerWaiters: Sendable {
    private struct State {
        var nextTag = 1
        var waiting: [String: CheckedContinuation<FilterEvent, any Error>] = [:]
        var ended: (any Error)?
    }

    private let state = Mutex(State())

    /// A fresh tag for an action whose answer `continuation` waits for; `nil` (and the
    /// continuation resumed with the error) once the session has ended.
    func register(_ continuation: CheckedContinuation<FilterEvent, any Error>) -> String? {
        let tag = state.withLock { state -> String? in
            guard state.ended == nil else { return nil }
            defer { state.nextTag += 1 }
            let tag = "a\(state.nextTag)"
            state.waiting[tag] = continuation
            return tag
        }
        if tag == nil { continuation.resume(throwing: state.withLock { $0.ended! }) }
        return tag
    }

    /// Hands a tagged event to the action waiting for it.
    func answer(_ event: FilterEvent) {
        guard let tag = event.tag, let waiter = state.withLock({ $0.waiting.removeValue(forKey: tag) }) else { return }
        waiter.resume(returning: event)
    }

    /// The session ended: every waiting action, and every later one, throws `error`.
    func end(_ error: any Error) {
        let waiting = state.withLock { state in
            if state.ended == nil { state.ended = error }
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
        for waiter in waiting { waiter.resume(throwing: error) }
    }
}
