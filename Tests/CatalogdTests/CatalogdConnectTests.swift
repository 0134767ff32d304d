import CatalogdTestSupport
import ChildProcess
import Foundation
import TestSupport
import Testing

/// catalogd over every protocol on its one port, called by foreign clients (Python's `h2` and
/// `http.client`): each read of the contract answers the same over gRPC, Connect over HTTP/2
/// (on the gRPC connection), Connect POST and GET over HTTP/1.1 and gRPC-Web; tokens and roles
/// hold over Connect; a Watch streams over Connect.
@Suite("catalogd over Connect and gRPC-Web")
struct CatalogdConnectTests {
    @Test("every read answers alike on every protocol; tokens and roles apply; a Watch streams over Connect")
    func parity() async throws {
        let file = TestTokens.freshFilePath()
        try TestTokens.writeFile(
            TestTokens.fileJSON([("alice", "reader", "reader-secret"), ("carol", "admin", "admin-secret")]), to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let catalogd = try await CatalogdProcess.start(extraArguments: ["--tokens", file.path, "--seed-demo"])
        defer { catalogd.kill() }
        let directory = try #require(Bundle.module.url(forResource: "Python", withExtension: nil))
        let client = try PythonProcess(
            scriptURL: directory.appendingPathComponent("connect_parity.py"),
            arguments: ["--port", "\(catalogd.port)", "--reader-token", "reader-secret", "--admin-token", "admin-secret"])
        let output = try await client.readToEnd()
        let status = await client.exitStatus()
        #expect(status == 0, "\(client.standardError)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any], "\(client.standardError)")

        let reads = try #require(report["reads"] as? [[String: Any]])
        #expect(reads.count == 12)
        for read in reads {
            let path = read["path"] as? String ?? "?"
            let answers = try #require(read["answers"] as? [String: Any])
            #expect(answers.count == 5, "\(path)")
            let grpc = try JSONSerialization.data(withJSONObject: try #require(answers["grpc"]), options: .sortedKeys)
            for (name, answer) in answers where name != "grpc" {
                let same = try JSONSerialization.data(withJSONObject: answer, options: .sortedKeys)
                #expect(same == grpc, "\(path) over \(name): \(String(decoding: same, as: UTF8.self)) against \(String(decoding: grpc, as: UTF8.self))")
            }
        }
        let missing = try #require(reads.first { ($0["answers"] as? [String: Any])?["grpc"].map { "\($0)".contains("notFound") } == true })
        #expect(missing["path"] as? String == "/catalog.v1.Categories/Get", "the NOT_FOUND read is compared too")

        let auth = try #require(report["auth"] as? [String: [String: Any]])
        #expect(auth["anonymousList"]?["status"] as? Int == 401)
        #expect(auth["anonymousList"]?["code"] as? String == "unauthenticated")
        #expect(auth["anonymousHealth"]?["status"] as? Int == 200)
        #expect(auth["readerList"]?["status"] as? Int == 200)
        #expect(auth["readerCreate"]?["status"] as? Int == 403)
        #expect(auth["readerCreate"]?["code"] as? String == "permission_denied")
        #expect(auth["adminCreate"]?["status"] as? Int == 200)
        #expect(auth["unknownToken"]?["status"] as? Int == 401)

        let watch = try #require(report["watch"] as? [String: Any])
        #expect(watch["status"] as? Int == 200)
        #expect(watch["flag"] as? Int == 0, "a message, not the end of the stream")
        #expect(watch["filterId"] as? String == "categories")
        #expect(watch["changeSelected"] as? Int == 3, "a Select over gRPC reaches the Connect subscriber: \(watch)")
        #expect(watch["changeRevision"] as? Int == watch["selectRevision"] as? Int, "\(watch)")
    }
}
