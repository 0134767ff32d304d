import ChildProcess
import Foundation

/// Runs `Python/cbor_server.py` (a CBOR server written with Python's `h2` and `cbor2`) on a
/// free loopback port while `body` runs, and always kills it afterwards. `body` gets the
/// process too, to read what the server wrote on stderr.
func withForeignCBORServer<T>(_ body: (_ port: Int, _ server: PythonProcess) async throws -> T) async throws -> T {
    guard let directory = Bundle.module.url(forResource: "Python", withExtension: nil) else {
        throw PythonProcess.Failure(description: "the Python test resources are missing from the bundle")
    }
    let server = try PythonProcess(scriptURL: directory.appendingPathComponent("cbor_server.py"), arguments: [])
    do {
        let line = try await server.readLine()
        guard let port = Int(line), port > 0 else {
            throw PythonProcess.Failure(description: "cbor_server.py printed \"\(line)\"; stderr:\n\(server.standardError)")
        }
        let result = try await body(port, server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
