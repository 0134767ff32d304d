import ChildProcess
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("ChildProcess")
struct ChildProcessTests {
    @Test("reports the exit status and what the child wrote to stdout and stderr, up to end of file")
    func exitStatusAndOutput() async throws {
        let outcome = try await Self.shell("echo out; echo err >&2; exit 3")
        #expect(outcome.status == 3)
        #expect(outcome.reason == .exit)
        #expect(outcome.stdout == "out\n")
        #expect(outcome.stderr == "err\n")
    }

    @Test("feeds standard input through a pipe, whose end of file the child sees")
    func standardInput() async throws {
        let outcome = try await Self.shell("tr a-z A-Z", stdin: Data("hello\nworld\n".utf8))
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "HELLO\nWORLD\n")
    }

    @Test("gives the child exactly the environment set, and this process's when none is")
    func environment() async throws {
        let exact = try await Self.shell("env") { $0.environment = ["ONLY": "this one"] }
        // sh may add PWD (and nothing else of ours may appear).
        let lines = exact.stdout.split(separator: "\n").filter { !$0.hasPrefix("PWD=") }
        #expect(lines == ["ONLY=this one"])

        let inherited = try await Self.shell("echo \"$HOME\"")
        #expect(inherited.stdout == (ProcessInfo.processInfo.environment["HOME"] ?? "") + "\n")
    }

    @Test("runs the child in the current directory set")
    func currentDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("childprocess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await Self.shell("pwd -P") { $0.currentDirectoryURL = directory }
        #expect(outcome.stdout == directory.resolvingSymlinksInPath().path + "\n")
    }

    @Test("the child holds no descriptor but 0, 1 and 2, not even one this process opened without CLOEXEC")
    func onlyStandardDescriptors() async throws {
        let leaked = open("/dev/null", O_RDONLY)
        try #require(leaked >= 0)
        defer { close(leaked) }
        let otherPipe = Pipe()
        _ = otherPipe
        // `ls` itself holds the directory it lists open: 3.
        let outcome = try await Self.shell("ls /proc/self/fd")
        let descriptors = outcome.stdout.split(separator: "\n").compactMap { Int32($0) }
        #expect(descriptors == [0, 1, 2, 3], "the parent's extra descriptor is \(leaked)")
    }

    @Test("starts the child with no blocked signal and the default disposition of SIGPIPE")
    func cleanSignalState() async throws {
        let outcome = try await Self.shell("exec grep -E '^Sig(Blk|Ign)' /proc/self/status")
        let fields = Self.signalFields(outcome.stdout)
        #expect(fields["SigBlk"] == 0)
        #expect(fields["SigIgn"].map { $0 & Self.bit(SIGPIPE) } == 0, "\(outcome.stdout)")
    }

    @Test("starts the child with the blocked signals asked for")
    func blockedSignals() async throws {
        let outcome = try await Self.shell("exec grep -E '^SigBlk' /proc/self/status") {
            $0.blockedSignals = [SIGTERM, SIGHUP]
        }
        #expect(Self.signalFields(outcome.stdout)["SigBlk"] == Self.bit(SIGTERM) | Self.bit(SIGHUP))
    }

    @Test("terminate() kills the child with SIGTERM, launched from a thread that blocks SIGTERM")
    func terminateFromBlockingThread() async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["60"]
        try Self.withSIGTERMBlocked { try process.run() }
        #expect(process.isRunning)
        #expect(process.processIdentifier > 0)
        process.terminate()
        await Self.onThread { process.waitUntilExit() }
        #expect(process.isRunning == false)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGTERM)
    }

    @Test("a child launched from a Swift concurrency thread receives SIGTERM and SIGINT", arguments: [SIGTERM, SIGINT])
    func signalFromConcurrencyThread(signal: Int32) async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["60"]
        process.standardInput = nil
        let ended = Mutex<(Int32, ChildProcess.TerminationReason)?>(nil)
        let handled = AsyncStream<Void>.makeStream()
        process.terminationHandler = { process in
            ended.withLock { $0 = (process.terminationStatus, process.terminationReason) }
            handled.continuation.finish()
        }
        try process.run()
        if signal == SIGINT { process.interrupt() } else { process.terminate() }
        for await _ in handled.stream {}
        let (status, reason) = try #require(ended.withLock { $0 })
        #expect(status == signal)
        #expect(reason == .uncaughtSignal)
    }

    @Test("spawns from several threads at once while this process holds a thousand descriptors")
    func manyDescriptors() async throws {
        // Foundation.Process.run() read /proc/self/fd past each name (swift-corelibs-foundation
        // #5472) and crashed now and then with this many descriptors open.
        var descriptors: [Int32] = []
        defer { for descriptor in descriptors { close(descriptor) } }
        for _ in 0..<1000 {
            let descriptor = open("/dev/null", O_RDONLY)
            try #require(descriptor >= 0)
            descriptors.append(descriptor)
        }
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            for index in 0..<40 {
                group.addTask { try await Self.shell("echo \(index); ls /proc/self/fd | wc -l") }
            }
            for try await outcome in group {
                #expect(outcome.status == 0)
                // `ls` holds its directory open: 4 descriptors.
                #expect(outcome.stdout.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } == "4")
            }
        }
    }

    @Test("a missing executable fails to spawn with ENOENT and its path")
    func missingExecutable() throws {
        let process = ChildProcess()
        let path = "/nonexistent/\(UUID().uuidString)"
        process.executableURL = URL(fileURLWithPath: path)
        let error = try #require(throws: ChildProcessError.self) { try process.run() }
        #expect(error.errno == ENOENT)
        #expect(error.path == path)
        #expect(process.isRunning == false)
        process.waitUntilExit()  // Returns at once.
    }

    // MARK: Helpers

    /// How a child ended, with everything it wrote.
    struct Outcome: Sendable {
        var status: Int32
        var reason: ChildProcess.TerminationReason
        var stdout: String
        var stderr: String
    }

    /// Runs `/bin/sh -c script` with pipes for stdout and stderr (and stdin when `stdin` is
    /// given, else /dev/null), reads both to end of file and waits for the exit, all off the
    /// concurrency thread pool.
    static func shell(
        _ script: String,
        stdin: Data? = nil,
        configure: (ChildProcess) -> Void = { _ in }
    ) async throws -> Outcome {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let stdinPipe = stdin.map { _ in Pipe() }
        process.standardInput = stdinPipe
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        configure(process)
        try process.run()
        if let stdin, let stdinPipe {
            stdinPipe.fileHandleForWriting.write(stdin)
            try stdinPipe.fileHandleForWriting.close()
        }
        async let errors = onThread { stderr.fileHandleForReading.readDataToEndOfFile() }
        async let output = onThread { stdout.fileHandleForReading.readDataToEndOfFile() }
        await onThread { process.waitUntilExit() }
        return Outcome(
            status: process.terminationStatus, reason: process.terminationReason,
            stdout: String(decoding: await output, as: UTF8.self),
            stderr: String(decoding: await errors, as: UTF8.self))
    }

    /// Runs blocking work on a thread of its own, keeping the concurrency thread pool free.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    /// Runs `body` with SIGTERM blocked on this thread (no suspension point in between).
    static func withSIGTERMBlocked<T>(_ body: () throws -> T) rethrows -> T {
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// The bit of `signal` in a mask of `/proc/<pid>/status`.
    static func bit(_ signal: Int32) -> UInt64 { 1 << UInt64(signal - 1) }

    /// `SigBlk`, `SigIgn`… lines of `/proc/<pid>/status` as bit masks.
    static func signalFields(_ text: String) -> [String: UInt64] {
        var fields: [String: UInt64] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let mask = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16) else { continue }
            fields[String(parts[0])] = mask
        }
        return fields
    }
}
