import Foundation

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
        try stdout.split(separator: "\n").map { line in
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

/// Runs one child process to its end, collecting its output.
enum CLIProcess {
    static func run(
        _ executable: URL,
        arguments: [String],
        environment: [String: String],
        stdin: Data?,
        timeout: Duration
    ) async throws -> CLIResult {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CLIProcessError("\(executable.path) is missing: build it first with `swift build --build-tests`")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let stdinPipe = stdin.map { _ in Pipe() }
        process.standardInput = stdinPipe ?? FileHandle.nullDevice

        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { exited.continuation.yield($0.terminationStatus) }
        try process.run()
        if let stdin, let stdinPipe {
            stdinPipe.fileHandleForWriting.write(stdin)
            try stdinPipe.fileHandleForWriting.close()
        }
        async let stdout = readAll(stdoutPipe.fileHandleForReading)
        async let stderr = readAll(stderrPipe.fileHandleForReading)

        let status = await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await exited.stream.first { _ in true } }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let status else {
            process.terminate()
            process.waitUntilExit()
            throw CLIProcessError("catalog \(arguments.joined(separator: " ")) did not exit within \(timeout)")
        }
        return CLIResult(status: status, stdout: await stdout, stderr: await stderr)
    }

    /// Reads a pipe to its end on a thread of its own (reads block).
    private static func readAll(_ handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = handle.readDataToEndOfFile()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
    }
}
