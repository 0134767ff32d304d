import CatalogKit
import ClientCallTiming
import Foundation
import RPCURLSession

// urlsession-benchmark PORT [ROUNDS] [N]: GetItem {"id": 42} N times one after another through
// a CatalogClient over URLSessionTransport (JSON, Connect unary over HTTP/1.1) and through a
// CatalogClient over nghttp2 (gRPC over HTTP/2), both to the catalogd listening on
// 127.0.0.1:PORT (the demo catalog), the two taking turns going first; prints one line a
// round, then the medians of the time a call and their ratio.

let arguments = CommandLine.arguments
guard arguments.count >= 2, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: urlsession-benchmark PORT [ROUNDS] [N]\n".utf8))
    exit(2)
}
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let calls = arguments.count > 3 ? Int(arguments[3]) ?? 5_000 : 5_000

let urlSession = CatalogClient(transport: URLSessionTransport(baseURL: URL(string: "http://127.0.0.1:\(port)")!, errorDetailNames: .catalog))
let nghttp2 = try await CatalogClient.connect(port: port)
let (overURLSession, overNGHTTP2) = try await compare(("urlsession", urlSession), ("nghttp2", nghttp2), rounds: rounds, calls: calls)
print(String(
    format: "median urlsession %.2f us, nghttp2 %.2f us, ratio urlsession / nghttp2 %.3f",
    overURLSession, overNGHTTP2, overURLSession / overNGHTTP2))
await nghttp2.close()
