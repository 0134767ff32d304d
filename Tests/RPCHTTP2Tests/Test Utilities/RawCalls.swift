/// A failed check inside `runBlocking`, where `#expect` and `#require` cannot record an
/// issue (they need the test's task): thrown, the test reports it.
struct CheckFailed: Error, CustomStringConvertible {
    var description: String
}

/// Throws `CheckFailed` with `message` unless `condition` holds.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw CheckFailed(description: message()) }
}

/// One uncompressed gRPC message: the 5-byte prefix, then `json`.
func grpcMessage(_ json: String) -> [UInt8] {
    let body = Array(json.utf8)
    var prefix: [UInt8] = [0]
    Frame.appendUInt32(UInt32(body.count), to: &prefix)
    return prefix + body
}

/// Opens a raw connection to `port` that sends the preface and nothing else, and returns every
/// frame the server sent until it closed the connection (blocking).
func framesUntilClosed(silentConnectionTo port: Int) throws -> [Frame] {
    let raw = try RawHTTP2Connection(port: port, readTimeout: .seconds(10))
    defer { raw.close() }
    try raw.sendPreface()
    return try raw.readUntilClosed()
}

extension RawHTTP2Connection {
    /// Sends the request of an `echo.v1.Echo/Get` call with `text` on `streamID`.
    func sendEchoGet(streamID: UInt32, text: String) throws {
        try sendHeaders(streamID: streamID, headers: Self.grpcRequestHeaders(path: "/echo.v1.Echo/Get"), endStream: false)
        try sendData(streamID: streamID, grpcMessage(#"{"text":"\#(text)"}"#), endStream: true)
    }
}

/// Opens a raw connection to `port`, sends the preface, lets `send` write, and returns the
/// GOAWAY that the server ended the connection with (`nil` when it closed without one;
/// blocking).
func closingGoAway(onConnectionTo port: Int, after send: (RawHTTP2Connection) throws -> Void) throws -> Frame? {
    let raw = try RawHTTP2Connection(port: port)
    defer { raw.close() }
    try raw.sendPreface()
    try send(raw)
    return try raw.readUntilClosed().first { $0.type == .goAway }
}
