import Synchronization

/// The streams of one connection whose response sources asked to be pulled, gathered from
/// any thread so that the connection's loop is woken once per batch rather than once per stream.
package final class SourceWakeQueue: Sendable {
    private let pending = Mutex<[Int32]>([])
    private let loop: any CallLoop
    private let drain: LoopBound<(_ streamIDs: [Int32]) -> Void>

    /// - Parameter drain: runs on the loop with the streams woken since the last run.
    init(loop: any CallLoop, drain: @escaping (_ streamIDs: [Int32]) -> Void) {
        self.loop = loop
        self.drain = LoopBound(drain, loop: loop)
    }

    func wake(_ streamID: Int32) {
        let first = pending.withLock { pending in
            pending.append(streamID)
            return pending.count == 1
        }
        guard first else { return }
        loop.execute { [self] in
            let streamIDs = pending.withLock { pending in
                defer { pending.removeAll(keepingCapacity: true) }
                return pending
            }
            drain.value(streamIDs)
        }
    }
}
