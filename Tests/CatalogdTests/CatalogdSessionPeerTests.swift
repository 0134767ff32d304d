import CatalogAPI
import CatalogdTestSupport
import ChildProcess
import Foundation
import RPCCore
import RPCHTTP2
import TestSupport
import Testing

@Suite("catalogd: Filters/Session from foreign clients")
struct CatalogdSessionPeerTests {
    /// What `session_peer.py` prints.
    struct PeerReport: Decodable {
        struct Event: Decodable, Equatable {
            var kind: String
            var tag: String?
            var revision: Int64
            var selectedId: Int64?
            var error: String?
        }

        struct HTTP1: Decodable {
            struct Body: Decodable {
                var code: String
            }

            var status: Int
            var body: Body
            var closes: Bool
        }

        var events: [Event]
        var code: String
        var http1: HTTP1
    }

    @Test("grpcio's stream_stream gets each action answered in order and OK after its half-close; Connect over HTTP/1.1 is 505", .timeLimit(.minutes(3)))
    func grpcioAndHTTP1() async throws {
        let catalogd = try await CatalogdProcess.start()
        defer { catalogd.kill() }
        let directory = try #require(Bundle.module.url(forResource: "Python", withExtension: nil))
        let peer = try PythonProcess(
            scriptURL: directory.appendingPathComponent("session_peer.py"), arguments: ["--target", "127.0.0.1:\(catalogd.port)"])
        let line = try await peer.readLine(timeout: .seconds(90))
        let report = try JSONDecoder().decode(PeerReport.self, from: Data(line.utf8))

        let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: catalogd.port, configuration: .catalog)
        defer { Task { await connection.close() } }
        let state = try await RPCClient(transport: connection).unary(FiltersService.get, FilterIDRequest(filterId: "categories"))
        let option = try #require(state.options.first).id
        typealias Event = PeerReport.Event
        #expect(
            report.events == [
                Event(kind: "snapshot", revision: 1),
                Event(kind: "synced", revision: 1),
                Event(kind: "change", tag: "pick", revision: 2, selectedId: option),
                Event(kind: "ack", tag: "again", revision: 2),
                Event(kind: "ack", tag: "missing", revision: 2, error: "not_found"),
                Event(kind: "change", tag: "clear", revision: 3),
            ], "\(peer.standardError)")
        #expect(report.code == "OK")
        #expect(state.revision == 3 && state.selectedId == nil)

        #expect(report.http1.status == 505)
        #expect(report.http1.body.code == "unimplemented")
        #expect(report.http1.closes)
    }
}
