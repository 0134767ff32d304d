import Foundation
import Testing

@testable import RPCCallLayer
@testable import RPCHTTP2

/// Files served beside the calls (`HTTP2ServerConfiguration.resources`): answered to GET over
/// HTTP/1.1 and HTTP/2 with their fields and an etag, `304` to a client that has them, and
/// never in the way of a call.
@Suite("HTTP resources beside the calls")
struct HTTPResourceTests {
    static let page = HTTPResource(
        path: "/", contentType: "text/html; charset=utf-8", body: Array("<!doctype html><p>hello</p>\n".utf8),
        headerFields: [("content-security-policy", "default-src 'self'")])
    static let script = HTTPResource(path: "/app.js", contentType: "text/javascript; charset=utf-8", body: Array("export {};\n".utf8))

    @Test("a GET over HTTP/1.1 is answered with the file, its fields and an etag, then the same connection serves a call")
    func http1() async throws {
        try await withTestServer(configure: { $0.resources = [Self.page, Self.script] }) { server in
            let body = #"{"text":"after"}"#
            let answer = try await CORSTests.exchange(
                port: server.port,
                "GET /?from=bookmark HTTP/1.1\r\nHost: a\r\n\r\n"
                    + "POST /echo.v1.Echo/Get HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            let etag = "\"\(ResourceTable.digest(Self.page.body))\""
            #expect(answer.hasPrefix("http/1.1 200 ok\r\n"), "\(answer)")
            #expect(answer.contains("content-type: text/html; charset=utf-8\r\n"))
            #expect(answer.contains("content-security-policy: default-src 'self'\r\n"))
            #expect(answer.contains("etag: \(etag)\r\n"))
            #expect(answer.contains("cache-control: no-cache\r\n"))
            #expect(answer.contains("x-content-type-options: nosniff\r\n"))
            #expect(answer.contains("content-length: \(Self.page.body.count)\r\n\r\n<!doctype html><p>hello</p>\n"), "\(answer)")
            #expect(answer.hasSuffix(#"{"text":"after"}"#), "the call after it on the same connection: \(answer)")
        }
    }

    @Test("a client that holds the file's version gets 304 with no body, over HTTP/1.1 and HTTP/2", arguments: [[String](), ["--http2-prior-knowledge"]])
    func notModified(options: [String]) async throws {
        try await withTestServer(configure: { $0.resources = [Self.page, Self.script] }) { server in
            let url = "http://127.0.0.1:\(server.port)/app.js"
            let fresh = String(decoding: try await HTTPClientsTests.curl(options + ["-s", "-i", url]), as: UTF8.self).lowercased()
            let etag = "\"\(ResourceTable.digest(Self.script.body))\""
            #expect(fresh.contains("etag: \(etag)"), "\(fresh)")
            #expect(fresh.hasSuffix("\r\n\r\nexport {};\n"), "\(fresh)")
            let cached = String(decoding: try await HTTPClientsTests.curl(options + ["-s", "-i", "-H", "if-none-match: \(etag)", url]), as: UTF8.self)
            #expect(cached.hasPrefix(options.isEmpty ? "HTTP/1.1 304" : "HTTP/2 304"), "\(cached)")
            #expect(cached.hasSuffix("\r\n\r\n"), "no body: \(cached)")
            let stale = try await HTTPClientsTests.curl(options + ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "if-none-match: \"0\"", url])
            #expect(String(decoding: stale, as: UTF8.self) == "200")
        }
    }

    @Test("only a GET of a listed path is a resource: a POST to it, another path, and a server with none go to the calls")
    func notResources() async throws {
        try await withTestServer(configure: { $0.resources = [Self.page] }) { server in
            let base = "http://127.0.0.1:\(server.port)"
            let post = try await HTTPClientsTests.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-d", "x", "\(base)/"])
            #expect(String(decoding: post, as: UTF8.self) == "415", "a POST to / is a call with no content type")
            let other = try await HTTPClientsTests.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "\(base)/app.js"])
            #expect(String(decoding: other, as: UTF8.self) == "415")
        }
        try await withTestServer { server in
            let root = try await HTTPClientsTests.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/"])
            #expect(String(decoding: root, as: UTF8.self) == "415")
        }
    }

    @Test("the table finds a path with or without a query, and tells versions apart")
    func table() {
        let table = ResourceTable([Self.page, Self.script])
        #expect(table.entry(for: "/")?.body == Self.page.body)
        #expect(table.entry(for: "/?a=1")?.body == Self.page.body)
        #expect(table.entry(for: "/app.js?v=2")?.body == Self.script.body)
        #expect(table.entry(for: "/app") == nil)
        #expect(table.entry(for: "/echo.v1.Echo/Get?encoding=json") == nil)
        #expect(table.entry(for: "/")?.notModifiedFields.first?.value == "304")
        #expect(ResourceTable.digest(Self.page.body) != ResourceTable.digest(Self.script.body))
        #expect(ResourceTable.digest([]) == "cbf29ce484222325", "FNV-1a's offset basis for no bytes")
        #expect(table == ResourceTable([Self.script, Self.page]))
        #expect(table != ResourceTable([Self.page]))
        #expect(ResourceTable([]).isEmpty)
    }
}
