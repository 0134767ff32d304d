import Foundation
import Hummingbird

// hummingbird-peer PORT BODY_FILE: answers POST /catalog.v1.Catalog/GetItem with the bytes of
// BODY_FILE as application/json, read once at start (a server at its leanest: no store, no codec).
let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]), let body = FileManager.default.contents(atPath: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: HummingbirdPeer PORT BODY_FILE\n".utf8))
    exit(2)
}
let bytes = ByteBuffer(bytes: body)
let router = Router()
router.post("/catalog.v1.Catalog/GetItem") { _, _ -> Response in
    Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: bytes))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
