import CNGHTTP2

/// Checks what a server sent on one connection: whole frames, each of a type, length and
/// stream that a server may send (RFC 9113 §6), SETTINGS first, each stream's frames in the
/// order of a response (HEADERS, DATA, trailers, or RST_STREAM at any point; nothing after its
/// end but one RST_STREAM), every header block decodable (HPACK, nghttp2's inflater) with `:status`
/// first, and each response ended as its content type's protocol ends it: gRPC by a header block
/// carrying a `grpc-status` from 0 to 16, gRPC-Web and Connect by their body
/// (END_STREAM on DATA) or by a headers-only answer carrying `grpc-status` (Connect unary's alone
/// may carry its status in its HTTP status), never by HTTP trailers.
struct ServerOutputCheck {
    /// A stream's state on the server's side: `headersSent` with whether the response is
    /// gRPC's (which alone ends with trailers), `ended` by END_STREAM (RST_STREAM may still
    /// follow, RFC 9113 §5.1 half-closed (local)), or `reset`.
    private enum StreamState: Equatable { case open, headersSent(grpc: Bool), ended, reset }

    private var streams: [UInt32: StreamState] = [:]
    private var goAwayLastStream: UInt32?
    private let inflater: OpaquePointer
    /// The header block being read (HEADERS, then CONTINUATION until END_HEADERS).
    private var block: (stream: UInt32, endStream: Bool, bytes: [UInt8])?

    static func check(_ output: [UInt8]) throws(FuzzFailure) {
        var check = try ServerOutputCheck()
        try check.read(output)
    }

    private init() throws(FuzzFailure) {
        var inflater: OpaquePointer?
        guard nghttp2_hd_inflate_new(&inflater) == 0, let inflater else { throw FuzzFailure("no HPACK inflater") }
        self.inflater = inflater
    }

    private mutating func read(_ output: [UInt8]) throws(FuzzFailure) {
        defer { nghttp2_hd_inflate_del(inflater) }
        var offset = 0
        var index = 0
        while offset < output.count {
            guard output.count - offset >= 9 else { throw FuzzFailure("the output ends inside a frame header") }
            let length = Int(output[offset]) << 16 | Int(output[offset + 1]) << 8 | Int(output[offset + 2])
            let type = output[offset + 3]
            let flags = output[offset + 4]
            let stream = (UInt32(output[offset + 5]) << 24 | UInt32(output[offset + 6]) << 16
                | UInt32(output[offset + 7]) << 8 | UInt32(output[offset + 8])) & 0x7FFF_FFFF
            guard output.count - offset - 9 >= length else { throw FuzzFailure("the output ends inside a frame") }
            let payload = Array(output[offset + 9..<offset + 9 + length])
            if index == 0, type != 4 || flags & 1 != 0 { throw FuzzFailure("the first frame is not SETTINGS") }
            try frame(type: type, flags: flags, stream: stream, payload: payload)
            offset += 9 + length
            index += 1
        }
    }

    private mutating func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) throws(FuzzFailure) {
        if let block, type != 9 { throw FuzzFailure("frame type \(type) inside the header block of stream \(block.stream)") }
        switch type {
        case 4, 6, 7:  // SETTINGS, PING, GOAWAY
            guard stream == 0 else { throw FuzzFailure("frame type \(type) on stream \(stream)") }
            if type == 4, payload.count % 6 != 0 || (flags & 1 != 0 && !payload.isEmpty) {
                throw FuzzFailure("a malformed SETTINGS frame")
            }
            if type == 6, payload.count != 8 { throw FuzzFailure("a PING of \(payload.count) bytes") }
            if type == 7 {
                guard payload.count >= 8 else { throw FuzzFailure("a GOAWAY of \(payload.count) bytes") }
                goAwayLastStream = UInt32(payload[0] & 0x7F) << 24 | UInt32(payload[1]) << 16 | UInt32(payload[2]) << 8 | UInt32(payload[3])
            }
        case 8:  // WINDOW_UPDATE
            guard payload.count == 4, payload.contains(where: { $0 != 0 }) else { throw FuzzFailure("a malformed WINDOW_UPDATE") }
        case 0, 1, 3:  // DATA, HEADERS, RST_STREAM
            guard stream % 2 == 1 else { throw FuzzFailure("frame type \(type) on stream \(stream), not a client's") }
            try streamFrame(type: type, flags: flags, stream: stream, payload: payload)
        case 9:  // CONTINUATION
            guard var open = block, open.stream == stream else { throw FuzzFailure("CONTINUATION outside a header block") }
            open.bytes += payload
            block = open
            if flags & 4 != 0 { try endBlock() }
        default:
            throw FuzzFailure("frame type \(type), which a server never sends here")
        }
    }

    private mutating func streamFrame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) throws(FuzzFailure) {
        let state = streams[stream] ?? .open
        guard state != .reset, state != .ended || type == 3 else {
            throw FuzzFailure("frame type \(type) on stream \(stream) after its end")
        }
        switch type {
        case 3:
            guard payload.count == 4 else { throw FuzzFailure("an RST_STREAM of \(payload.count) bytes") }
            streams[stream] = .reset
        case 1:
            if state == .open, let last = goAwayLastStream, stream > last {
                throw FuzzFailure("an answer on stream \(stream), above the GOAWAY's last stream \(last)")
            }
            let padded = flags & 0x8 != 0
            let priority = flags & 0x20 != 0
            guard !padded && !priority else { throw FuzzFailure("padding or priority in a server's HEADERS") }
            block = (stream, flags & 1 != 0, payload)
            if flags & 4 != 0 { try endBlock() }
        default:
            guard case .headersSent(let grpc) = state else { throw FuzzFailure("DATA on stream \(stream) before its headers") }
            if flags & 1 != 0 {
                if grpc { throw FuzzFailure("DATA ending gRPC stream \(stream): gRPC ends with trailers") }
                streams[stream] = .ended
            }
        }
    }

    /// Decodes the header block just completed and checks it.
    private mutating func endBlock() throws(FuzzFailure) {
        guard let (stream, endStream, bytes) = block else { return }
        block = nil
        let fields = try decode(bytes)
        let first = (streams[stream] ?? .open) == .open
        if first, fields.first?.name != ":status" {
            throw FuzzFailure("stream \(stream)'s response headers do not start with :status: \(fields.map(\.name))")
        }
        if !first, fields.contains(where: { $0.name.hasPrefix(":") }) {
            throw FuzzFailure("pseudo-headers in stream \(stream)'s trailers")
        }
        if case .headersSent(grpc: false) = streams[stream] {
            throw FuzzFailure("HTTP trailers on stream \(stream), whose protocol ends in its body")
        }
        let contentType = fields.first(where: { $0.name == "content-type" })?.value ?? ""
        let endsWithStatus = first ? Self.carriesGRPCStatus(contentType) : true
        if endStream {
            if endsWithStatus {
                guard let status = fields.first(where: { $0.name == "grpc-status" }).flatMap({ Int($0.value) }), (0...16).contains(status)
                else { throw FuzzFailure("stream \(stream) ended without a valid grpc-status: \(fields)") }
            }
            streams[stream] = .ended
        } else {
            guard first else { throw FuzzFailure("stream \(stream)'s trailers do not end it") }
            streams[stream] = .headersSent(grpc: Self.isGRPC(contentType))
        }
    }

    /// gRPC's content types (`application/grpc`, `application/grpc+json`, …), whose responses
    /// end with trailers; not gRPC-Web's.
    private static func isGRPC(_ contentType: String) -> Bool {
        contentType == "application/grpc" || contentType.hasPrefix("application/grpc+")
    }

    /// Whether a headers-only answer in this content type carries its status as `grpc-status`:
    /// every one but a Connect unary answer's (`application/json`, `application/cbor`), whose
    /// HTTP status and body carry it.
    private static func carriesGRPCStatus(_ contentType: String) -> Bool {
        let essence = String(contentType.prefix { $0 != ";" }.filter { $0 != " " })
        return essence != "application/json" && essence != "application/cbor"
    }

    private func decode(_ bytes: [UInt8]) throws(FuzzFailure) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        var offset = 0
        while true {
            var field = nghttp2_nv()
            var inflateFlags: Int32 = 0
            let read = bytes.withUnsafeBufferPointer { buffer in
                nghttp2_hd_inflate_hd2(
                    inflater, &field, &inflateFlags, buffer.baseAddress.map { $0 + offset }, buffer.count - offset, 1)
            }
            guard read >= 0 else { throw FuzzFailure("a header block nghttp2 cannot decode (\(read))") }
            offset += read
            if inflateFlags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) != 0 {
                fields.append((
                    String(decoding: UnsafeBufferPointer(start: field.name, count: field.namelen), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(start: field.value, count: field.valuelen), as: UTF8.self)))
            }
            if inflateFlags & Int32(NGHTTP2_HD_INFLATE_FINAL.rawValue) != 0 {
                nghttp2_hd_inflate_end_headers(inflater)
                return fields
            }
            if read == 0 && offset == bytes.count { throw FuzzFailure("a header block that never ends") }
        }
    }
}
