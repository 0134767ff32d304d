import CatalogConsole
import CatalogdTestSupport
import ChildProcess
import Foundation
import Testing

/// catalogd serves the console's files at `/` and `/console/`, each with its type and a strict
/// Content-Security-Policy, unless `--console off` or `CATALOG_CONSOLE=off`.
@Suite("catalogd serves the console")
struct CatalogdConsoleServingTests {
    /// `curl -s -i URL` (HTTP/1.1, or HTTP/2 with `options`): the status line, header fields and body.
    static func get(_ url: String, options: [String] = []) throws -> (status: String, fields: [String: String], body: [UInt8]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--max-time", "10", "-s", "-i"] + options + [url]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        let end = try #require(output.firstRange(of: Array("\r\n\r\n".utf8)))
        let head = String(decoding: output[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        var fields: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (head[0], fields, Array(output[end.upperBound...]))
    }

    @Test("every file of the console at its path, over HTTP/1.1 and HTTP/2, with its type and the CSP; the ready log names the console", arguments: [[String](), ["--http2-prior-knowledge"]])
    func served(options: [String]) async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        let log = try await catalogd.waitUntilReady().stderr
        #expect(log.contains("console on http://127.0.0.1:\(catalogd.port)/"), "\(log)")
        #expect(CatalogConsole.files.contains { $0.path == "/" })
        for file in CatalogConsole.files {
            let answer = try Self.get("http://127.0.0.1:\(catalogd.port)\(file.path)", options: options)
            #expect(answer.status.split(separator: " ").dropFirst().first == "200", "\(file.path): \(answer.status)")
            #expect(answer.fields["content-type"] == file.contentType, "\(file.path)")
            #expect(answer.fields["content-security-policy"] == CatalogConsole.contentSecurityPolicy, "\(file.path)")
            #expect(answer.fields["x-frame-options"] == "DENY")
            #expect(answer.body == file.body, "\(file.path)")
        }
    }

    @Test("--console off and CATALOG_CONSOLE=off serve no page; an unknown value is refused at start")
    func off() async throws {
        let flagged = try await CatalogdProcess.start(extraArguments: ["--console", "off"])
        defer { flagged.kill() }
        let byFlag = try Self.get("http://127.0.0.1:\(flagged.port)/")
        #expect(byFlag.status.split(separator: " ").dropFirst().first == "415", "a GET of / is then a call without a content type: \(byFlag.status)")
        #expect(byFlag.fields["content-security-policy"] == nil)
        #expect(!(try await flagged.waitUntilReady().stderr.contains("console on")))

        let port = try freeLoopbackPort()
        let directory = try CatalogdProcess.makeDirectory()
        let byEnvironment = try CatalogdProcess(
            arguments: ["--address", "127.0.0.1:\(port)", "--database", directory.appendingPathComponent("catalog.sqlite").path],
            environment: ["CATALOG_CONSOLE": "off"], port: port, directory: directory)
        defer { byEnvironment.kill() }
        try await byEnvironment.waitUntilReady()
        #expect(try Self.get("http://127.0.0.1:\(port)/console/app.js").status.split(separator: " ").dropFirst().first == "415")

        let refused = try await CatalogdProcess.runUntilExit(["--console", "maybe"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--console"), "\(refused)")
    }

    @Test("every module the page loads and every module they import is a file of the console")
    func modulesResolve() throws {
        let paths = Set(CatalogConsole.files.map(\.path))
        let page = String(decoding: try #require(CatalogConsole.files.first { $0.path == "/" }).body, as: UTF8.self)
        var wanted = page.matches(of: /(?:href|src)="(\/console\/[^"]+)"/).map { String($0.output.1) }
        for file in CatalogConsole.files where file.path.hasSuffix(".js") {
            let text = String(decoding: file.body, as: UTF8.self)
            wanted += text.matches(of: /(?:from |import\()"\.\/([a-z]+\.js)"/).map { "/console/\($0.output.1)" }
        }
        #expect(wanted.count > 10, "\(wanted)")
        for path in wanted { #expect(paths.contains(path), "\(path) is referenced but not served") }
    }
}
