import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process launched with `posix_spawn`, with the subset of `Foundation.Process`'s API
/// that the tests use.
///
/// `Foundation.Process.run()` on Linux reads `/proc/self/fd` past the end of each entry's name
/// (swift-corelibs-foundation #5472) and crashes now and then when the test process holds many
/// descriptors. This class spawns directly instead, and on the way gives every child a clean
/// start:
///
/// - no blocked signal (unless ``blockedSignals`` says otherwise) and the default disposition
///   of the common signals, whichever thread launches it: Swift concurrency threads block most
///   signals, and a child of `Foundation.Process` inherited that mask;
/// - no descriptor but 0, 1 and 2, so a child never holds another test's pipe ends;
/// - a process group of its own, as with `Foundation.Process`.
///
/// A thread per child blocks in `waitid` until the child exits, then records how it ended,
/// calls ``terminationHandler`` and releases ``waitUntilExit()``.
///
/// ```swift
/// let process = ChildProcess()
/// process.executableURL = URL(fileURLWithPath: "/bin/sh")
/// process.arguments = ["-c", "echo hello"]
/// let output = Pipe()
/// process.standardOutput = output
/// try process.run()
/// let data = output.fileHandleForReading.readDataToEndOfFile()  // EOF once sh exits
/// process.waitUntilExit()
/// ```
public final class ChildProcess: Sendable {
    /// Why a process ended.
    public enum TerminationReason: Sendable, Hashable {
        /// It called `exit` (or returned from `main`).
        case exit
        /// A signal killed it.
        case uncaughtSignal
    }

    /// Where one of the child's standard descriptors comes from.
    enum StandardIO: Sendable {
        /// `/dev/null`.
        case nullDevice
        /// The child's end of a pipe; the parent closes its copy of that end after spawning.
        case pipe(Pipe)
        /// The descriptor of a file handle, shared with the child.
        case fileHandle(FileHandle)
    }

    struct Configuration: Sendable {
        var executableURL: URL?
        var arguments: [String]?
        var environment: [String: String]?
        var currentDirectoryURL: URL?
        var standardInput = StandardIO.fileHandle(.standardInput)
        var standardOutput = StandardIO.fileHandle(.standardOutput)
        var standardError = StandardIO.fileHandle(.standardError)
        var blockedSignals: [Int32] = []
        var terminationHandler: (@Sendable (ChildProcess) -> Void)?
    }

    private enum Phase {
        case notLaunched
        case launching
        case running(pid_t)
        case exited(pid_t, status: Int32, reason: TerminationReason)
    }

    private struct State {
        var configuration = Configuration()
        var phase = Phase.notLaunched
    }

    private let state = Mutex(State())
    /// Entered by `run()`, left once the child exited.
    private let exited = DispatchGroup()

    public init() {}

    // MARK: Configuration (set before `run()`)

    /// The program to run: a path, no `PATH` search.
    public var executableURL: URL? {
        get { state.withLock { $0.configuration.executableURL } }
        set { configure { $0.executableURL = newValue } }
    }

    /// The arguments after `argv[0]` (which is the executable's path).
    public var arguments: [String]? {
        get { state.withLock { $0.configuration.arguments } }
        set { configure { $0.arguments = newValue } }
    }

    /// Exactly the child's environment; `nil` (the default): this process's environment.
    public var environment: [String: String]? {
        get { state.withLock { $0.configuration.environment } }
        set { configure { $0.environment = newValue } }
    }

    /// The child's working directory; `nil` (the default): this process's.
    public var currentDirectoryURL: URL? {
        get { state.withLock { $0.configuration.currentDirectoryURL } }
        set { configure { $0.currentDirectoryURL = newValue } }
    }

    /// A `Pipe` (the child reads its reading end), a `FileHandle`, or `nil` for `/dev/null`.
    /// Default: `FileHandle.standardInput`, inherited.
    public var standardInput: Any? {
        get { state.withLock { $0.configuration.standardInput }.object }
        set { let io = StandardIO(newValue); configure { $0.standardInput = io } }
    }

    /// A `Pipe` (the child writes its writing end), a `FileHandle`, or `nil` for `/dev/null`.
    /// Default: `FileHandle.standardOutput`, inherited.
    public var standardOutput: Any? {
        get { state.withLock { $0.configuration.standardOutput }.object }
        set { let io = StandardIO(newValue); configure { $0.standardOutput = io } }
    }

    /// A `Pipe` (the child writes its writing end), a `FileHandle`, or `nil` for `/dev/null`.
    /// Default: `FileHandle.standardError`, inherited.
    public var standardError: Any? {
        get { state.withLock { $0.configuration.standardError }.object }
        set { let io = StandardIO(newValue); configure { $0.standardError = io } }
    }

    /// Signals that start blocked in the child. Default: none.
    public var blockedSignals: [Int32] {
        get { state.withLock { $0.configuration.blockedSignals } }
        set { configure { $0.blockedSignals = newValue } }
    }

    /// Called once, on the thread that waited for the child, after the exit status is recorded
    /// and before ``waitUntilExit()`` returns; set it before `run()` (one set after the exit is
    /// never called). It must not wait for this process itself.
    public var terminationHandler: (@Sendable (ChildProcess) -> Void)? {
        get { state.withLock { $0.configuration.terminationHandler } }
        set { state.withLock { $0.configuration.terminationHandler = newValue } }
    }

    private func configure(_ change: (inout Configuration) -> Void) {
        state.withLock { state in
            guard case .notLaunched = state.phase else { preconditionFailure("ChildProcess already launched") }
            change(&state.configuration)
        }
    }

    // MARK: Running

    /// Spawns the child and returns once it runs. Throws ``ChildProcessError`` when it cannot
    /// be spawned (the executable is missing, for instance).
    public func run() throws {
        let configuration = state.withLock { state in
            guard case .notLaunched = state.phase else { preconditionFailure("ChildProcess already launched") }
            state.phase = .launching
            return state.configuration
        }
        exited.enter()
        let pid: pid_t
        do {
            pid = try Self.spawn(configuration)
        } catch {
            state.withLock { $0.phase = .notLaunched }
            exited.leave()
            throw error
        }
        state.withLock { $0.phase = .running(pid) }
        let waiter = Thread { [self] in waitForExit(of: pid) }
        waiter.name = "ChildProcess \(pid)"
        waiter.start()
    }

    /// Blocks until the child exited (returns at once if it was never launched).
    public func waitUntilExit() {
        exited.wait()
    }

    /// The child's process ID; 0 before `run()`.
    public var processIdentifier: Int32 {
        state.withLock { state in
            switch state.phase {
            case .notLaunched, .launching: 0
            case .running(let pid), .exited(let pid, _, _): pid
            }
        }
    }

    /// Whether the child was launched and has not exited yet.
    public var isRunning: Bool {
        state.withLock { state in
            if case .running = state.phase { true } else { false }
        }
    }

    /// The exit status, or the number of the signal that killed the child. Only once it exited.
    public var terminationStatus: Int32 {
        state.withLock { state in
            guard case .exited(_, let status, _) = state.phase else { preconditionFailure("ChildProcess still running") }
            return status
        }
    }

    /// Whether the child exited or a signal killed it. Only once it exited.
    public var terminationReason: TerminationReason {
        state.withLock { state in
            guard case .exited(_, _, let reason) = state.phase else { preconditionFailure("ChildProcess still running") }
            return reason
        }
    }

    /// Sends `signal` to the child if it still runs. The child is reaped under the same lock, so
    /// the signal can never reach another process that reused its ID.
    public func send(signal: Int32) {
        state.withLock { state in
            if case .running(let pid) = state.phase { _ = kill(pid, signal) }
        }
    }

    /// Sends SIGTERM.
    public func terminate() {
        send(signal: SIGTERM)
    }

    /// Sends SIGINT.
    public func interrupt() {
        send(signal: SIGINT)
    }

    /// Runs on the child's own thread: waits without reaping (so that the ID stays the child's
    /// while `send(signal:)` may use it), then reaps and records the status under the lock.
    private func waitForExit(of pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 {
            guard errno == EINTR else { fatalError("waitid(\(pid)) failed: errno \(errno)") }
        }
        let handler = state.withLock { state in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { fatalError("waitpid(\(pid)) failed: errno \(errno)") }
            }
            let signal = status & 0x7F
            state.phase =
                signal == 0
                ? .exited(pid, status: (status >> 8) & 0xFF, reason: .exit)
                : .exited(pid, status: signal, reason: .uncaughtSignal)
            defer { state.configuration.terminationHandler = nil }
            return state.configuration.terminationHandler
        }
        handler?(self)
        exited.leave()
    }
}

extension ChildProcess.StandardIO {
    init(_ object: Any?) {
        switch object {
        case .none: self = .nullDevice
        case let handle as FileHandle where handle === FileHandle.nullDevice: self = .nullDevice
        case let handle as FileHandle: self = .fileHandle(handle)
        case let pipe as Pipe: self = .pipe(pipe)
        case .some(let other): preconditionFailure("not a Pipe or a FileHandle: \(other)")
        }
    }

    var object: Any? {
        switch self {
        case .nullDevice: FileHandle.nullDevice
        case .pipe(let pipe): pipe
        case .fileHandle(let handle): handle
        }
    }
}
