import CatalogdTestSupport
import ChildProcess
import Foundation
import Testing

/// catalogd called in CBOR by a foreign client: Python's `h2` and `cbor2`
/// (`Python/cbor_peer.py`), no gRPC library (grpcio always sends `application/grpc`).
@Suite("CBOR with a foreign client", .timeLimit(.minutes(2)))
struct CBORInteropTests {
    @Test("unary calls, errors, ill-formed input and Watch in CBOR; every response canonical; every read equal to its JSON")
    func foreignClient() async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        let directory = try #require(Bundle.module.url(forResource: "Python", withExtension: nil))
        let peer = try PythonProcess(
            scriptURL: directory.appendingPathComponent("cbor_peer.py"), arguments: ["--target", "127.0.0.1:\(catalogd.port)"])
        let output = try await peer.readToEnd()
        let status = await peer.exitStatus()
        #expect(status == 0, "\(peer.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any], "\(peer.standardError)")
        let checks = try #require(report["checks"] as? [String: Bool])
        #expect(checks.count == 13)
        for (check, passed) in checks.sorted(by: { $0.key < $1.key }) {
            #expect(passed, "\(check); \(report["notes"] ?? "")")
        }
        // The server kept serving after the ill-formed input: the peer's later calls passed.
        #expect(catalogd.snapshot.exitStatus == nil)
    }
}
