import ChildProcess
import Foundation

extension PythonProcess {
    /// Launches `python3 Python/<script> <arguments...>` from the test bundle.
    convenience init(script: String, arguments: [String]) throws {
        guard let directory = Bundle.module.url(forResource: "Python", withExtension: nil) else {
            throw Failure(description: "the Python test resources are missing from the bundle")
        }
        try self.init(scriptURL: directory.appendingPathComponent(script), arguments: arguments)
    }

    /// Runs `python3 <script> <arguments...>` to its end and returns its stdout; throws, with
    /// its output, unless it exits 0.
    static func output(ofScript script: String, arguments: [String]) async throws -> [UInt8] {
        let process = try PythonProcess(script: script, arguments: arguments)
        let output: [UInt8]
        do {
            output = try await process.readToEnd()
        } catch {
            await process.stop()
            throw error
        }
        let status = await process.exitStatus()
        guard status == 0 else {
            throw Failure(
                description: "\(script) exited with \(status); stdout: \(String(decoding: output, as: UTF8.self))\nstderr:\n\(process.standardError)")
        }
        return output
    }
}

/// Runs `echo_server.py` (the grpcio reference implementation of `echo.v1.Echo`) on a free
/// loopback port while `body` runs, and always stops it afterwards.
func withGrpcioEchoServer<T>(_ body: (_ port: Int) async throws -> T) async throws -> T {
    let server = try PythonProcess(script: "echo_server.py", arguments: ["--port", "0"])
    do {
        let line = try await server.readLine(timeout: .seconds(20))
        let prefix = "LISTENING "
        guard line.hasPrefix(prefix), let port = Int(line.dropFirst(prefix.count)), port > 0 else {
            throw PythonProcess.Failure(description: "echo_server.py printed \"\(line)\"; stderr:\n\(server.standardError)")
        }
        let result = try await body(port)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
