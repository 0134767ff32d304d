import CatalogKit
import CatalogTesting
import ClientCallTiming
import Foundation

// in-process-benchmark PORT [ROUNDS] [N]: GetItem {"id": 42} N times one after another through
// a CatalogClient over the InProcessTransport (the demo catalog in this process), and through
// a CatalogClient over nghttp2 to the catalogd listening on 127.0.0.1:PORT (the demo catalog
// too), the two taking turns going first; prints one line a round, then the medians of the
// time a call and their ratio.

let arguments = CommandLine.arguments
guard arguments.count >= 2, let port = Int(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: in-process-benchmark PORT [ROUNDS] [N]\n".utf8))
    exit(2)
}
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
let calls = arguments.count > 3 ? Int(arguments[3]) ?? 20_000 : 20_000

let inProcess = try await InProcessCatalog.start(seedDemo: true)
let network = try await CatalogClient.connect(port: port)
let (local, loopback) = try await compare(("in-process", inProcess.client), ("nghttp2", network), rounds: rounds, calls: calls)
print(String(format: "median in-process %.2f us, nghttp2 loopback %.2f us, ratio in-process / nghttp2 %.3f", local, loopback, local / loopback))
await network.close()
await inProcess.close()
