import CatalogAPI
import DequeModule
import RPCCore

/// What a `Filters/Session` owes its client: the answers to its actions, in their order, which
/// its subscription sends at their place among the filter's changes. Touched only under the
/// subscription's lock.
final class SessionAnswers {
    /// What an action did.
    enum Outcome {
        /// It made this state: answered by the `change` to it, tagged.
        case changed(FilterState)
        /// It changed nothing; the filter is at this state: answered by an `ack`.
        case unchanged(FilterState)
        /// It was refused: answered by an `ack` with the error.
        case refused(RPCError)
    }

    struct Answer {
        var tag: String?
        var outcome: Outcome
    }

    /// An action is being applied: live changes wait, for one of them may be its own.
    private(set) var applying = false
    private var answers = Deque<Answer>()
    /// The status the session ends with once every action is answered (the client half-closed).
    var endWhenAnswered: ResponseTrailers?

    /// The next answer to send.
    var first: Answer? { answers.first }

    /// Answers not sent yet.
    var count: Int { answers.count }

    func begin() {
        applying = true
    }

    func answer(_ answer: Answer) {
        applying = false
        answers.append(answer)
    }

    func removeFirst() {
        answers.removeFirst()
    }
}
