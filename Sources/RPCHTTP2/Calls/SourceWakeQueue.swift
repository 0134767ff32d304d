import NIOCore
import Synchronization

/// The streams of one connection whose response sources asked to be pulled, gathered from
/// any thread so that the event loop is woken once per batch rather than once per stream.
final class SourceWakeQueue: Sendable {
    private let pending = Mutex<[Int32]>([])
    private let eventLoop: any EventLoop
    private let drain: NIOLoopBound<(_ streamIDs: [Int32]) -> Void>

    /// - Parameter drain: runs on the event loop with the streams woken since the last run.
    init(eventLoop: any EventLoop, drain: @escaping (_ streamIDs: [Int32]) -> Void) {
        self.eventLoop = eventLoop
        self.drain = NIOLoopBound(drain, eventLoop: eventLoop)
    }

    func wake(_ streamID: Int32) {
        let first = pending.withLock { pending in
            pending.append(streamID)
            return pending.count == 1
        }
        guard first else { return }
        eventLoop.execute { [self] in
            let streamIDs = pending.withLock { pending in
                defer { pending.removeAll(keepingCapacity: true) }
                return pending
            }
            drain.value(streamIDs)
        }
    }
}
