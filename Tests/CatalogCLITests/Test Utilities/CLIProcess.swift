import ChildProcess
import Foundation
import Synchronization
import TestSupport

/// How a `catalog` run ended, with everything it wrote.
struct CLIResult: Sendable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    /// Standard output parsed as one JSON value.
    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }

    /// Standard output as a JSON object.
    func jsonObject() throws -> [String: Any] {
        guard let object = try json() as? [String: Any] else { throw CLIProcessError("not a JSON object: \(stdout)") }
        return object
    }

    /// Each line of standard output parsed as a JSON object.
    func jsonLines() throws -> [[String: Any]] {
        try Self.jsonLines(stdout)
    }

    /// Each line of `text` parsed as a JSON object.
    static func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CLIProcessError("not a JSON object: \(line)")
            }
            return object
        }
    }

    var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
}

struct CLIProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A child process whose output is collected as it comes, so that a test can wait for a
/// line (a watch's first event) before it acts, then for the exit.
final class CLIProcess: Sendable {
    private struct Output {
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var status: Int32?
        var closedPipes = 0
    }

    private let process: ChildProcess
    private let output = Mutex(Output())
    private let commandLine: String

    /// Starts `executable arguments` with exactly `environment`, `stdin` as its input (none:
    /// an empty input that is not a terminal).
    init(_ executable: URL, arguments: [String], environment: [String: String], stdin: Data?) throws {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CLIProcessError("\(executable.path) is missing: build it first with `swift build --build-tests`")
        }
        commandLine = ([executable.lastPathComponent] + arguments).joined(separator: " ")
        process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let stdinPipe = stdin.map { _ in Pipe() }
        process.standardInput = stdinPipe ?? FileHandle.nullDevice
        process.terminationHandler = { [weak self] process in
            self?.output.withLock { $0.status = process.terminationStatus }
        }
        // ChildProcess starts the child with no signal blocked, whichever thread spawns it (Swift
        // concurrency threads block most signals): a tmux server can stop its shell, Ctrl-C
        // reaches `catalog`.
        try process.run()
        if let stdin, let stdinPipe {
            stdinPipe.fileHandleForWriting.write(stdin)
            try stdinPipe.fileHandleForWriting.close()
        }
        collect(stdoutPipe.fileHandleForReading, into: \.stdout)
        collect(stderrPipe.fileHandleForReading, into: \.stderr)
    }

    /// Runs a process to its end.
    static func run(
        _ executable: URL,
        arguments: [String],
        environment: [String: String],
        stdin: Data?,
        timeout: Duration
    ) async throws -> CLIResult {
        try await CLIProcess(executable, arguments: arguments, environment: environment, stdin: stdin).waitForExit(timeout: timeout)
    }

    /// Polls until standard output so far satisfies `predicate`, and returns it; throws when
    /// the process exits first or after `timeout`.
    @discardableResult
    func waitForOutput(timeout: Duration = .seconds(20), _ predicate: (String) -> Bool) async throws -> String {
        do {
            return try await eventually(timeout: timeout, every: .milliseconds(50)) {
                let (text, exited) = output.withLock { (String(decoding: $0.stdout, as: UTF8.self), $0.status != nil && $0.closedPipes == 2) }
                if predicate(text) { return text }
                if exited { throw CLIProcessError("\(commandLine) exited before the expected output: \(result())") }
                return nil
            }
        } catch is EventuallyTimedOut {
            throw CLIProcessError("timed out after \(timeout) waiting for output of \(commandLine): \(result())")
        }
    }

    /// Polls until the process exited and its output was read to the end; stops it and
    /// throws after `timeout`.
    func waitForExit(timeout: Duration = .seconds(60)) async throws -> CLIResult {
        do {
            try await eventually(timeout: timeout, every: .milliseconds(20)) {
                output.withLock { $0.status != nil && $0.closedPipes == 2 }
            }
            return result()
        } catch is EventuallyTimedOut {
            process.terminate()
            throw CLIProcessError("\(commandLine) did not exit within \(timeout): \(result())")
        }
    }

    private func result() -> CLIResult {
        output.withLock {
            CLIResult(
                status: $0.status ?? -1, stdout: String(decoding: $0.stdout, as: UTF8.self),
                stderr: String(decoding: $0.stderr, as: UTF8.self))
        }
    }

    /// Reads a pipe as data comes, on a thread of its own (reads block), until end of file.
    private func collect(_ handle: FileHandle, into buffer: WritableKeyPath<Output, [UInt8]> & Sendable) {
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                output.withLock { $0[keyPath: buffer] += data }
            }
            output.withLock { $0.closedPipes += 1 }
        }
    }
}
