import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A Python script running under `python3` as a child process.
///
/// stdout is a pipe read with deadlines (`readLine`, `readToEnd`); stderr goes to a temporary
/// file so that it can never fill a pipe and block the child, and is kept for diagnostics.
///
/// `stop()` sends SIGKILL: nothing of a script needs a graceful stop. (`ChildProcess` starts it
/// with no signal blocked, so SIGTERM would work too, whichever thread launched it.)
public final class PythonProcess: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The script's file name, for messages.
    public let script: String
    private let process: ChildProcess
    private let stdoutFD: Int32
    private let stdoutPipe: Pipe
    private let stderrURL: URL
    /// Bytes read from stdout and not returned yet (past the last line returned).
    private let pending = Mutex<[UInt8]>([])

    /// Launches `python3 <scriptURL> <arguments...>`.
    public init(scriptURL: URL, arguments: [String]) throws {
        let script = scriptURL.lastPathComponent
        self.script = script
        stderrURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(script)-\(UUID().uuidString).stderr")
        guard FileManager.default.createFile(atPath: stderrURL.path, contents: nil) else {
            throw Failure(description: "cannot create \(stderrURL.path)")
        }
        let stderrHandle = try FileHandle(forWritingTo: stderrURL)
        defer { try? stderrHandle.close() }

        stdoutPipe = Pipe()
        stdoutFD = stdoutPipe.fileHandleForReading.fileDescriptor
        process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        // Loopback calls must not go through a proxy; keep the bundle free of __pycache__.
        for key in ["http_proxy", "https_proxy", "grpc_proxy", "HTTP_PROXY", "HTTPS_PROXY", "GRPC_PROXY"] {
            environment.removeValue(forKey: key)
        }
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdoutPipe
        process.standardError = stderrHandle
        try process.run()
    }

    deinit {
        try? FileManager.default.removeItem(at: stderrURL)
    }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// What the script wrote to stderr so far.
    public var standardError: String {
        (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
    }

    /// The next line of stdout, without its newline. Throws at end of file or when no full line
    /// arrived within `timeout`.
    public func readLine(timeout: Duration = .seconds(20)) async throws -> String {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        return try await Self.onDedicatedThread { [self] in
            while true {
                let line: [UInt8]? = pending.withLock { buffer in
                    guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                    let line = Array(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    return line
                }
                if let line { return String(decoding: line, as: UTF8.self) }
                guard let chunk = try Self.read(stdoutFD, deadline: deadline, waitingFor: "a line from \(script)") else {
                    throw Failure(description: "\(script) closed stdout before a full line; stderr:\n\(standardError)")
                }
                pending.withLock { $0.append(contentsOf: chunk) }
            }
        }
    }

    /// The rest of stdout up to end of file. Throws when the file did not end within `timeout`.
    public func readToEnd(timeout: Duration = .seconds(120)) async throws -> [UInt8] {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        return try await Self.onDedicatedThread { [self] in
            var output = pending.withLock { buffer in
                defer { buffer.removeAll() }
                return buffer
            }
            while let chunk = try Self.read(stdoutFD, deadline: deadline, waitingFor: "the end of \(script)'s output") {
                output.append(contentsOf: chunk)
            }
            return output
        }
    }

    /// Waits for the process to exit on its own (call after `readToEnd`) and returns its exit status.
    public func exitStatus() async -> Int32 {
        await Self.onDedicatedThread { [process] in
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Kills the process (SIGKILL) if it still runs and reaps it.
    public func stop() async {
        await Self.onDedicatedThread { [process] in
            process.send(signal: SIGKILL)
            process.waitUntilExit()
        }
        try? stdoutPipe.fileHandleForReading.close()
    }

    // MARK: Blocking helpers

    /// Up to 64 KiB from `fd` once some is available; `nil` at end of file.
    private static func read(_ fd: Int32, deadline: ContinuousClock.Instant, waitingFor what: String) throws -> [UInt8]? {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { throw Failure(description: "timed out waiting for \(what)") }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "poll failed with errno \(errno)")
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure(description: "read failed with errno \(errno)")
            }
            if count == 0 { return nil }
            return Array(chunk[..<count])
        }
    }

    /// Runs blocking work on its own thread, keeping the concurrency thread pool free.
    private static func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    private static func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
