import NIOCore
import RPCCallLayer

/// A NIO event loop as the call layer's `CallLoop`.
struct EventLoopCallLoop: CallLoop {
    let eventLoop: any EventLoop
    let taskExecutor: any TaskExecutor

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
        self.taskExecutor = EventLoopTaskExecutor(eventLoop)
    }

    var isCurrent: Bool { eventLoop.inEventLoop }

    func execute(_ body: @escaping @Sendable () -> Void) {
        eventLoop.execute(body)
    }

    func schedule(after delay: Duration, _ body: @escaping () -> Void) -> any CallTimer {
        eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(delay), body)
    }
}

extension Scheduled: CallTimer {}

extension SocketAddress: PeerAddress {}
