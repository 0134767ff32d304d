import RPCCore
import RPCFraming

/// How one call's response goes on the wire, by the protocol its content type selects: its
/// head, each message, and its end. A value with no I/O, the same over HTTP/1.1 and HTTP/2,
/// so each protocol's decisions are tested without sockets.
///
/// | protocol          | head                       | message        | end                              |
/// |-------------------|----------------------------|----------------|----------------------------------|
/// | gRPC              | 200, metadata              | envelope       | trailers (or trailers-only head) |
/// | gRPC-Web          | 200, metadata              | envelope       | trailer frame, flag 0x80         |
/// | gRPC-Web text     | as gRPC-Web                | base64 of each | base64 of the trailer frame      |
/// | Connect streaming | 200, metadata              | envelope       | end envelope, flag 0x02, JSON    |
/// | Connect unary     | status mapped from the code, sent at the end with the bare message or the error JSON |
package struct ResponseFraming {
    let contentType: ContentType
    /// Compresses each envelope, or the whole body of a Connect unary answer.
    let compression: CompressionAlgorithm
    /// The names the error detail goes under.
    let detailNames: ErrorDetailNames

    /// What follows the last message.
    enum End: Equatable {
        /// HTTP/2 trailers carry the status.
        case trailers(ResponseTrailers)
        /// These bytes end the body, and the body ends the response.
        case body([UInt8])
    }

    /// Whether the response head waits for the end of the call (Connect unary: its HTTP status is the call's).
    var headWaitsForEnd: Bool { contentType.framing == .connectUnary }

    /// Whether an answer with no message may be a head alone (gRPC's trailers-only).
    var answersHeadOnly: Bool {
        switch contentType.framing {
        case .grpc: true
        case .grpcWeb, .grpcWebText, .connectUnary, .connectStreaming: false
        }
    }

    /// The head of a response that streams messages (not Connect unary).
    func streamingHead(_ initialMetadata: Metadata) -> ResponseHead {
        guard compression == .identity, initialMetadata.isEmpty else {
            var fields: [(name: String, value: String)] = [(":status", "200"), ("content-type", contentType.headerValue)]
            switch contentType.framing {
            case .grpc, .grpcWeb, .grpcWebText:
                if compression != .identity { fields.append(("grpc-encoding", compression.name)) }
                fields.append(("grpc-accept-encoding", CompressionAlgorithm.acceptEncodingHeader))
            case .connectStreaming:
                if compression != .identity { fields.append(("connect-content-encoding", compression.name)) }
                fields.append(("connect-accept-encoding", CompressionAlgorithm.acceptEncodingHeader))
            case .connectUnary:
                break
            }
            fields.append(contentsOf: initialMetadata.headerFields)
            return .fields(fields)
        }
        return .plain(contentType)
    }

    /// The fields of a `.plain` head in `contentType`: `200`, the content type, and the
    /// encodings accepted (gRPC and gRPC-Web: `grpc-accept-encoding`; Connect streaming:
    /// `connect-accept-encoding`; Connect unary: none).
    package static func plainHeadFields(_ contentType: ContentType) -> [(name: String, value: String)] {
        let head: [(name: String, value: String)] = [(":status", "200"), ("content-type", contentType.headerValue)]
        switch contentType.framing {
        case .grpc, .grpcWeb, .grpcWebText: return head + [("grpc-accept-encoding", CompressionAlgorithm.acceptEncodingHeader)]
        case .connectStreaming: return head + [("connect-accept-encoding", CompressionAlgorithm.acceptEncodingHeader)]
        case .connectUnary: return head
        }
    }

    /// The head alone that answers a gRPC call with no message: its status in the head.
    func headOnly(_ trailers: ResponseTrailers) -> ResponseHead {
        .fields([(":status", "200"), ("content-type", contentType.headerValue)] + trailers.headerFields(detailTrailer: detailNames.trailer))
    }

    /// The bytes of one message in the body, before text encoding (see `encodeText`).
    func envelope(_ message: [UInt8]) -> FramedMessage {
        FramedMessage(message, compression: compression)
    }

    /// Whether the body's bytes go out as base64 (gRPC-Web text).
    var isText: Bool { contentType.framing == .grpcWebText }

    /// What ends a streamed response with `trailers`.
    func end(_ trailers: ResponseTrailers) -> End {
        switch contentType.framing {
        case .grpc:
            return .trailers(trailers)
        case .grpcWeb, .grpcWebText:
            return .body(Self.trailerFrame(trailers, detailNames: detailNames))
        case .connectStreaming, .connectUnary:
            return .body(Self.endOfStream(trailers, detailNames: detailNames))
        }
    }

    /// Connect unary's whole answer: `message` when the call succeeded, the error JSON otherwise.
    func unaryAnswer(message: [UInt8]?, initialMetadata: Metadata, trailers: ResponseTrailers) -> (head: ResponseHead, body: [UInt8]) {
        if trailers.code == .ok, initialMetadata.isEmpty, trailers.metadata.isEmpty,
            compression == .identity || (message?.count ?? 0) < Self.minimumCompressedBody
        {
            return (.plain(contentType), message ?? [])
        }
        var fields: [(name: String, value: String)]
        var body: [UInt8]
        if trailers.code == .ok {
            body = message ?? []
            fields = [(":status", "200"), ("content-type", contentType.headerValue)]
            if compression != .identity, body.count >= Self.minimumCompressedBody {
                body = Gzip.compress(body)
                fields.append(("content-encoding", compression.name))
            }
        } else {
            body = ConnectError.json(trailers, names: detailNames)
            fields = [(":status", String(ConnectError.httpStatus(trailers.code))), ("content-type", "application/json")]
        }
        fields.append(contentsOf: initialMetadata.headerFields)
        for (name, value) in trailers.metadata.headerFields where name != detailNames.trailer {
            fields.append(("trailer-" + name, value))
        }
        return (.fields(fields), body)
    }

    /// A Connect unary body smaller than this goes uncompressed: gzip would cost more than it saves.
    static let minimumCompressedBody = 1024

    /// gRPC-Web's trailer frame: flag 0x80, length, then `name: value` lines.
    static func trailerFrame(_ trailers: ResponseTrailers, detailNames: ErrorDetailNames) -> [UInt8] {
        var block = [UInt8]()
        for (name, value) in trailers.headerFields(detailTrailer: detailNames.trailer) {
            block.append(contentsOf: name.lowercased().utf8)
            block.append(contentsOf: ": ".utf8)
            block.append(contentsOf: value.utf8)
            block.append(contentsOf: "\r\n".utf8)
        }
        return envelopeBytes(flag: 0x80, block)
    }

    /// Connect's end-of-stream envelope: flag 0x02, then `{}` or `{"error": …, "metadata": …}`.
    static func endOfStream(_ trailers: ResponseTrailers, detailNames: ErrorDetailNames) -> [UInt8] {
        envelopeBytes(flag: 0x02, ConnectError.endOfStreamJSON(trailers, names: detailNames))
    }

    private static func envelopeBytes(flag: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [flag, UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + payload
    }
}
