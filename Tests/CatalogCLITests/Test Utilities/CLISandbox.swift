import Foundation

/// A private home for the `catalog` runs of one test: a temporary directory as `HOME` (so no
/// real config file is read), a config file path in it, and an environment without any
/// `CATALOG_*` variable of the test process.
///
/// ```swift
/// let sandbox = try CLISandbox()
/// try sandbox.writeConfig(#"{"current": "local", "contexts": {"local": {"server": "\#(server.address)"}}}"#)
/// let result = try await sandbox.run(["category", "list", "-o", "json"])
/// #expect(result.status == 0)
/// ```
final class CLISandbox: Sendable {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-cli-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// `~/.config/catalog/config.json` of the sandbox's home: the default config path.
    var configPath: String { directory.appendingPathComponent(".config/catalog/config.json").path }

    /// The environment of every run: the sandbox as home, UTF-8, and the built products on `PATH`.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CATALOG_") && $0.key != "NO_COLOR" }
        environment["HOME"] = directory.path
        environment.removeValue(forKey: "XDG_CONFIG_HOME")
        environment["LANG"] = "C.UTF-8"
        environment["PATH"] = CLIBinary.directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    /// Writes the default config file.
    func writeConfig(_ json: String) throws {
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: configPath).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(json.utf8).write(to: URL(fileURLWithPath: configPath))
    }

    /// Writes `contents` to a file of the sandbox and returns its path.
    @discardableResult
    func writeFile(_ name: String, _ contents: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url.path
    }

    /// Runs `catalog arguments` with `environment` plus `extraEnvironment`, `stdin` as its
    /// standard input (none: an empty, non-terminal input), and waits for it to exit.
    func run(
        _ arguments: [String],
        environment extraEnvironment: [String: String] = [:],
        stdin: String? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> CLIResult {
        try await CLIProcess.run(
            CLIBinary.url, arguments: arguments, environment: environment.merging(extraEnvironment) { _, new in new },
            stdin: stdin.map { Data($0.utf8) }, timeout: timeout)
    }
}

/// Where the `catalog` executable is: next to the test bundle, in the build products directory.
enum CLIBinary {
    static var directory: URL {
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return executable.resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static var url: URL { directory.appendingPathComponent("catalog") }
}
