import ChildProcess
import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `catalogd` child process: its stderr, read as it comes, and its exit.
///
/// ```swift
/// let catalogd = try await CatalogdProcess.start()
/// defer { catalogd.kill() }
/// // … talk to 127.0.0.1:\(catalogd.port) …
/// catalogd.send(SIGTERM)
/// let exit = try await catalogd.waitForExit()
/// ```
package final class CatalogdProcess: Sendable {
    /// What a child process has done so far.
    package struct Snapshot: Sendable {
        /// The bytes read from stderr so far.
        package var stderrBytes: [UInt8] = []
        /// Whether stderr reached end of file.
        package var stderrClosed = false
        /// The exit status, once the process ended (the signal number if a signal ended it).
        package var exitStatus: Int32?
        /// Whether a signal, not `exit`, ended the process.
        package var killedBySignal = false

        /// Everything read from stderr so far, as text.
        package var stderr: String { String(decoding: stderrBytes, as: UTF8.self) }

        /// The stderr lines announcing readiness.
        package var readyLines: [Substring] {
            stderr.split(separator: "\n").filter { $0.contains("catalogd ready on ") }
        }
    }

    /// How the process ended.
    package struct Exit: Sendable, CustomStringConvertible {
        package var status: Int32
        package var killedBySignal: Bool
        package var stderr: String

        package var description: String {
            "\(killedBySignal ? "killed by signal" : "exited with status") \(status); stderr:\n\(stderr)"
        }
    }

    private struct Waiter {
        var predicate: @Sendable (Snapshot) -> Bool
        var continuation: CheckedContinuation<Snapshot?, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var snapshot = Snapshot()
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    /// The port passed in `--address`, or the one it was asked to use through the environment.
    package let port: Int
    /// A fresh directory for the database, removed by `kill()`.
    package let directory: URL
    private let process: ChildProcess
    private let state = Mutex(State())

    package var processIdentifier: Int32 { process.processIdentifier }

    /// Starts `catalogd --address 127.0.0.1:<free port> --database <database, else a fresh
    /// dir's catalog.sqlite> <extra>` and waits for its ready line.
    package static func start(
        database: String? = nil,
        extraArguments: [String] = [],
        readyTimeout: Duration = .seconds(20)
    ) async throws -> CatalogdProcess {
        let port = try freeLoopbackPort()
        let directory = try makeDirectory()
        let catalogd = try CatalogdProcess(
            arguments: ["--address", "127.0.0.1:\(port)", "--database", database ?? directory.appendingPathComponent("catalog.sqlite").path]
                + extraArguments,
            port: port,
            directory: directory
        )
        do {
            try await catalogd.waitUntilReady(timeout: readyTimeout)
        } catch {
            catalogd.kill()
            throw error
        }
        return catalogd
    }

    /// Launches `catalogd` with exactly `arguments` and `environment` added to ours (minus
    /// any `CATALOG_*` variables of ours); does not wait for anything. Removes `directory`
    /// when the launch fails.
    package init(arguments: [String], environment: [String: String] = [:], port: Int, directory: URL) throws {
        self.port = port
        self.directory = directory
        let process = ChildProcess()
        do {
            process.executableURL = try Self.binary()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CATALOG_") }
        inherited.merge(environment) { _, new in new }
        process.environment = inherited
        process.currentDirectoryURL = directory
        let stderrPipe = Pipe()
        process.standardError = stderrPipe
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        self.process = process
        process.terminationHandler = { [weak self] process in
            let status = process.terminationStatus
            let bySignal = process.terminationReason == .uncaughtSignal
            self?.update { $0.exitStatus = status; $0.killedBySignal = bySignal }
        }
        // catalogd starts with SIGTERM, SIGINT and SIGHUP blocked, as the child of a parent that
        // blocks them would (Swift concurrency threads do, and `Foundation.Process` handed the
        // child the spawning thread's mask), so every test proves catalogd copes with such a parent.
        process.blockedSignals = Self.shutdownSignals
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        // ChildProcess closes the pipe's write end in this process after spawning, so the reader sees
        // end of file once catalogd (and anything that inherited its stderr) exited.
        let reading = stderrPipe.fileHandleForReading
        let thread = Thread { [weak self] in
            let descriptor = reading.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    let chunk = buffer[..<count]
                    self?.update { $0.stderrBytes += chunk }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            self?.update { $0.stderrClosed = true }
            try? reading.close()
        }
        thread.name = "catalogd stderr \(process.processIdentifier)"
        thread.start()
    }

    /// What happened so far.
    package var snapshot: Snapshot { state.withLock { $0.snapshot } }

    /// Sends `signal` (e.g. `SIGTERM`) to the process, if it still runs.
    package func send(_ signal: Int32) {
        process.send(signal: signal)
    }

    /// SIGKILL (if it still runs), reap it, and remove its directory. Safe to call more than once.
    package func kill() {
        send(SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits until stderr holds the ready line; throws with stderr if it exits first or time runs out.
    @discardableResult
    package func waitUntilReady(timeout: Duration = .seconds(20)) async throws -> Snapshot {
        let snapshot = try await wait(timeout: timeout, for: "the ready line") {
            !$0.readyLines.isEmpty || $0.exitStatus != nil
        }
        guard snapshot.readyLines.isEmpty == false else {
            throw CatalogdProcessError("catalogd exited (status \(snapshot.exitStatus ?? -1)) before it was ready; stderr:\n\(snapshot.stderr)")
        }
        return snapshot
    }

    /// Waits until the process exited and its stderr was read to the end; SIGKILLs it and
    /// throws when that takes longer than `timeout`.
    package func waitForExit(timeout: Duration = .seconds(20)) async throws -> Exit {
        let snapshot: Snapshot
        do {
            snapshot = try await wait(timeout: timeout, for: "exit") { $0.exitStatus != nil && $0.stderrClosed }
        } catch {
            kill()
            throw error
        }
        return Exit(status: snapshot.exitStatus ?? -1, killedBySignal: snapshot.killedBySignal, stderr: snapshot.stderr)
    }

    /// Waits until `predicate` holds for what happened so far, or throws after `timeout`.
    package func wait(
        timeout: Duration,
        for what: String,
        until predicate: @escaping @Sendable (Snapshot) -> Bool
    ) async throws -> Snapshot {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Snapshot?, Never>) in
            let id: Int? = state.withLock { state in
                if predicate(state.snapshot) {
                    continuation.resume(returning: state.snapshot)
                    return nil
                }
                defer { state.nextWaiter += 1 }
                state.waiters[state.nextWaiter] = Waiter(predicate: predicate, continuation: continuation)
                return state.nextWaiter
            }
            guard let id else { return }
            let timer = Task { [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self?.expire(id)
            }
            let stillWaiting = state.withLock { state in
                state.waiters[id]?.timer = timer
                return state.waiters[id] != nil
            }
            if !stillWaiting { timer.cancel() }
        }
        guard let result else {
            throw CatalogdProcessError("timed out after \(timeout) waiting for \(what) of catalogd; stderr so far:\n\(snapshot.stderr)")
        }
        return result
    }

    private func expire(_ id: Int) {
        state.withLock { state in
            state.waiters.removeValue(forKey: id)?.continuation.resume(returning: nil)
        }
    }

    private func update(_ change: (inout Snapshot) -> Void) {
        state.withLock { state in
            change(&state.snapshot)
            for (id, waiter) in state.waiters where waiter.predicate(state.snapshot) {
                state.waiters.removeValue(forKey: id)
                waiter.timer?.cancel()
                waiter.continuation.resume(returning: state.snapshot)
            }
        }
    }

    // MARK: - Setup

    /// The signals that stop catalogd, blocked when it starts.
    package static let shutdownSignals = [SIGTERM, SIGINT, SIGHUP]

    /// The directory holding the Package.swift above `filePath`.
    package static func packageRoot(filePath: String = #filePath) throws -> URL {
        try PackageRoot.url(filePath: filePath)
    }

    /// `.build/debug/catalogd` of the package that holds this file.
    package static func binary() throws -> URL {
        let binary = try packageRoot().appendingPathComponent(".build/debug/catalogd")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw CatalogdProcessError("\(binary.path) is missing: build it first with `swift build --build-tests`")
        }
        return binary
    }

    /// Runs catalogd with `arguments` (plus a fresh database, and `--address` on a free
    /// loopback port unless given) until it exits on its own.
    package static func runUntilExit(
        _ arguments: [String], environment: [String: String] = [:], port: Int? = nil
    ) async throws -> Exit {
        let port = try port ?? freeLoopbackPort()
        let directory = try makeDirectory()
        let address = arguments.contains("--address") ? [] : ["--address", "127.0.0.1:\(port)"]
        let catalogd = try CatalogdProcess(
            arguments: address + ["--database", directory.appendingPathComponent("catalog.sqlite").path] + arguments,
            environment: environment, port: port, directory: directory)
        defer { catalogd.kill() }
        return try await catalogd.waitForExit()
    }

    /// A fresh temporary directory.
    package static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalogd-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

}

package struct CatalogdProcessError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
