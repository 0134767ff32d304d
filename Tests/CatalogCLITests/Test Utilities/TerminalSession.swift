import ChildProcess
import Foundation
import TestSupport

/// A real terminal for `catalog`: a shell in a detached tmux session of its own (its own
/// server socket in the sandbox), driven with `send-keys` and read with `capture-pane`.
///
/// Waits poll the screen until the expected text is there, never sleep a fixed time; their
/// deadline is generous because CI runs tests in parallel on 2 cores.
///
/// ```swift
/// try await withTerminal(sandbox) { terminal in
///     try await terminal.run("catalog category list --server \(server.address)")
///     let screen = try await terminal.waitFor { $0.contains("exit=0") }
/// }
/// ```
final class TerminalSession: Sendable {
    let socket: String
    private let environment: [String: String]
    /// Kept so that its directory, which holds the tmux socket, outlives the session.
    private let sandbox: CLISandbox

    static let width = 120
    static let height = 40

    fileprivate init(sandbox: CLISandbox, environment extra: [String: String]) async throws {
        self.sandbox = sandbox
        socket = sandbox.directory.appendingPathComponent("tmux.sock").path
        var environment = sandbox.environment.merging(extra) { _, new in new }
        environment["TERM"] = "xterm-256color"
        environment.removeValue(forKey: "TMUX")
        self.environment = environment
        let shell = "env PS1='$ ' bash --norc --noprofile"
        try await tmux(["new-session", "-d", "-x", "\(Self.width)", "-y", "\(Self.height)", "-s", "cli", shell])
        try await tmux(["set-option", "-g", "history-limit", "5000"])
        _ = try await waitFor(timeout: .seconds(20)) { $0.contains("$") }
    }

    /// Types `commandLine` and presses Enter; the shell then prints `exit=<status>` after it
    /// (see ``waitForExit(timeout:)``).
    func run(_ commandLine: String) async throws {
        try await type(commandLine + "; echo \"exit=$?\"")
        try await press("Enter")
    }

    /// Waits for the line `exit=<status>` that follows a command started with ``run(_:)``, and
    /// returns the screen and the status.
    func waitForExit(timeout: Duration = .seconds(30)) async throws -> (screen: String, status: Int32) {
        let screen = try await waitFor(timeout: timeout) { Self.exitStatus(in: $0) != nil }
        return (screen, Self.exitStatus(in: screen) ?? -1)
    }

    private static func exitStatus(in screen: String) -> Int32? {
        screen.split(separator: "\n").lazy.compactMap { line in
            line.hasPrefix("exit=") ? Int32(line.dropFirst("exit=".count)) : nil
        }.first
    }

    /// Types `text` literally.
    func type(_ text: String) async throws {
        try await tmux(["send-keys", "-t", "cli", "-l", text])
    }

    /// Presses a key by its tmux name, such as `Enter` or `C-c`.
    func press(_ key: String) async throws {
        try await tmux(["send-keys", "-t", "cli", key])
    }

    /// What the screen shows now; with `colors`, with the escape sequences of its colours.
    func screen(colors: Bool = false) async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", "cli"] + (colors ? ["-e"] : []))
    }

    /// The pane's title, which the program in it may set (OSC 0 or 2).
    func paneTitle() async throws -> String {
        try await tmux(["display-message", "-p", "-t", "cli", "#{pane_title}"])
    }

    /// Polls the screen until `predicate` holds and returns it; throws with the last screen
    /// after `timeout`.
    func waitFor(
        timeout: Duration = .seconds(20),
        colors: Bool = false,
        _ predicate: (String) -> Bool
    ) async throws -> String {
        var last = ""
        do {
            return try await eventually(timeout: timeout, every: .milliseconds(100)) {
                last = try await screen(colors: colors)
                return predicate(last) ? last : nil
            }
        } catch is EventuallyTimedOut {
            throw CLIProcessError("timed out after \(timeout) waiting for the terminal; it shows:\n\(last)")
        }
    }

    /// Stops the session and its tmux server.
    fileprivate func close() async {
        _ = try? await tmux(["kill-server"])
    }

    /// Runs a tmux client and returns its standard output. The client that starts the server
    /// holds no descriptor but the standard ones (`ChildProcess` closes the others in every
    /// child), so the server, which outlives it, keeps none of this process's sockets open.
    ///
    /// Its output goes to files, read once it has exited, not to pipes read to their end: the
    /// client hands its standard descriptors to the server, and once, in a full parallel test
    /// run, `new-session` exited 0 while its pipes stayed open past the 20 s wait.
    @discardableResult
    private func tmux(_ arguments: [String]) async throws -> String {
        let command = "tmux " + arguments.joined(separator: " ")
        let outputs = (0..<2).map { sandbox.directory.appendingPathComponent("tmux-\(UUID().uuidString).\($0)") }
        defer { for output in outputs { try? FileManager.default.removeItem(at: output) } }
        let handles = try outputs.map { output in
            guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
                throw CLIProcessError("cannot create \(output.path)")
            }
            return try FileHandle(forWritingTo: output)
        }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "-u", "-f", "/dev/null", "-S", socket] + arguments
        process.environment = environment
        process.standardInput = nil
        process.standardOutput = handles[0]
        process.standardError = handles[1]
        try process.run()
        for handle in handles { try handle.close() }

        do {
            try await eventually(timeout: .seconds(20)) { !process.isRunning }
        } catch is EventuallyTimedOut {
            process.terminate()
            throw CLIProcessError("\(command) did not exit within 20 s")
        }
        let texts = try outputs.map { try String(contentsOf: $0, encoding: .utf8) }
        guard process.terminationStatus == 0 else {
            throw CLIProcessError("\(command) failed: exit \(process.terminationStatus)\n\(texts.joined())")
        }
        return texts[0]
    }
}

/// Runs `body` with a terminal of `sandbox` (its environment plus `environment`), and
/// closes the terminal whatever happens.
func withTerminal<T>(
    _ sandbox: CLISandbox,
    environment: [String: String] = [:],
    _ body: (TerminalSession) async throws -> T
) async throws -> T {
    let terminal = try await TerminalSession(sandbox: sandbox, environment: environment)
    do {
        let result = try await body(terminal)
        await terminal.close()
        return result
    } catch {
        await terminal.close()
        throw error
    }
}
