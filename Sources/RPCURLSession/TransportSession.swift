import Foundation
import RPCCore
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession of a `URLSessionTransport` and its delegate, shared by the copies of the
/// transport; invalidated (letting running tasks finish) when the last copy goes.
final class TransportSession: Sendable {
    private let session: URLSession
    private let delegate: SessionDelegate

    init(configuration: URLSessionConfiguration) {
        let delegate = SessionDelegate()
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// A task, not yet resumed, whose events go to `call`.
    func dataTask(with request: URLRequest, for call: URLSessionCall) -> URLSessionDataTask {
        let task = session.dataTask(with: request)
        delegate.register(call, for: task)
        return task
    }

    /// Cancels a task that was never resumed, and forgets its call.
    func discard(_ task: URLSessionDataTask) {
        delegate.forget(task)
        task.cancel()
    }
}

/// Hands each task's events to its call.
///
/// Only `didReceive data` and `didCompleteWithError` are implemented, the two that have the
/// same signature on every platform; a call reads the response's head from its task.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// The calls of the running tasks, by task identifier.
    private let calls = Mutex<[Int: URLSessionCall]>([:])

    /// Sends the events of `task` to `call` until it completes.
    func register(_ call: URLSessionCall, for task: URLSessionTask) {
        calls.withLock { $0[task.taskIdentifier] = call }
    }

    /// Stops sending the events of `task` to its call.
    func forget(_ task: URLSessionTask) {
        _ = calls.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let call = calls.withLock { $0[dataTask.taskIdentifier] }
        call?.didReceive(data, response: dataTask.response)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let call = calls.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        call?.didComplete(error: error, response: task.response)
    }
}
