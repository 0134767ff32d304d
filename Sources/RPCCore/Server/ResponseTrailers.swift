/// How a call ends: status, message, error detail and trailing metadata.
public struct ResponseTrailers: Sendable, Hashable {
    /// The call's status.
    public var code: StatusCode
    /// The status message, `grpc-message` (empty when there is none).
    public var message: String
    /// The structured error detail, in the trailer its service's ``ErrorDetailNames`` name.
    public var detail: ErrorDetail?
    /// Custom trailing metadata.
    public var metadata: Metadata

    /// Trailers with a status, its message and detail, and metadata.
    public init(code: StatusCode, message: String = "", detail: ErrorDetail? = nil, metadata: Metadata = [:]) {
        self.code = code
        self.message = message
        self.detail = detail
        self.metadata = metadata
    }

    /// A successful end with the given trailing metadata.
    public static func ok(_ metadata: Metadata = [:]) -> ResponseTrailers {
        ResponseTrailers(code: .ok, metadata: metadata)
    }

    /// The end of a call that failed with `error`.
    public init(error: RPCError) {
        self.init(code: error.code, message: error.message, detail: error.detail, metadata: error.metadata)
    }

    /// Whether these are the trailers of most calls: OK, with nothing else.
    package var isPlainOK: Bool { code == .ok && message.isEmpty && detail == nil && metadata.isEmpty }

    /// The header fields: `grpc-status`, then `grpc-message` and the detail (in the trailer
    /// `detailTrailer`) when present, then the metadata.
    ///
    /// Errors often quote what a client sent, so the trailers are kept small enough for any
    /// gRPC client (whose header lists are limited to a few KiB): the message is cut to its
    /// first `maxMessageBytes` bytes of UTF-8 and marked `…`, and a detail whose JSON passes
    /// `maxDetailBytes` keeps its reason and field (cut likewise) only.
    package func headerFields(detailTrailer: String) -> [(name: String, value: String)] {
        if isPlainOK { return Self.plainOK }
        var fields: [(name: String, value: String)] = [("grpc-status", String(code.rawValue))]
        if !message.isEmpty { fields.append(("grpc-message", PercentEncoding.encode(Self.cut(message)))) }
        if let detail, var json = try? JSONCodec.shared.encode(detail) {
            if json.count > Self.maxDetailBytes, let short = try? JSONCodec.shared.encode(
                ErrorDetail(reason: detail.reason, field: detail.field.map(Self.cut)))
            {
                json = short
            }
            fields.append((detailTrailer, Base64.encode(json)))
        }
        var metadata = self.metadata
        metadata.remove(detailTrailer)
        fields.append(contentsOf: metadata.headerFields)
        return fields
    }

    /// The longest `grpc-message` sent, in bytes of UTF-8 before percent-encoding.
    package static let maxMessageBytes = 1024
    /// The longest error detail JSON sent with its details.
    package static let maxDetailBytes = 2048

    /// `text` cut to at most `maxMessageBytes` bytes of UTF-8, on a scalar boundary (a
    /// character may be one huge cluster), and marked `…` when it was cut.
    private static func cut(_ text: String) -> String {
        guard text.utf8.count > maxMessageBytes else { return text }
        var kept = String.UnicodeScalarView()
        var size = 0
        for scalar in text.unicodeScalars {
            size += UTF8.width(scalar)
            guard size <= maxMessageBytes - 3 else { break }
            kept.append(scalar)
        }
        return String(kept) + "…"
    }

    /// The trailers of most calls, made once.
    private static let plainOK = [(name: "grpc-status", value: "0")]

    /// Parses received trailers, the detail from the trailer `detailTrailer`; a missing or
    /// malformed `grpc-status` is INTERNAL (or UNKNOWN for an unknown number), as gRPC
    /// clients do.
    package init(headerFields: some Collection<(name: String, value: String)>, detailTrailer: String) {
        var code: StatusCode?
        var message = ""
        var detail: ErrorDetail?
        var rawStatus: String?
        for (name, value) in headerFields {
            switch name {
            case "grpc-status": rawStatus = value
            case "grpc-message": message = PercentEncoding.decode(value)
            case detailTrailer:
                if let bytes = Base64.decode(value) {
                    detail = try? JSONCodec.shared.decode(ErrorDetail.self, from: bytes)
                }
            default: break
            }
        }
        if let rawStatus {
            if let number = Int(rawStatus) {
                code = StatusCode(rawValue: number) ?? .unknown
            } else {
                code = .internalError
                message = "malformed grpc-status '\(rawStatus)'"
            }
        } else {
            code = .internalError
            message = "the response ended without a grpc-status"
        }
        var metadata = Metadata(headerFields: headerFields)
        metadata.remove(detailTrailer)
        self.init(code: code!, message: message, detail: detail, metadata: metadata)
    }

    /// The error these trailers stand for, or `nil` when the status is OK.
    package var error: RPCError? {
        code == .ok ? nil : RPCError(code, message, detail: detail, metadata: metadata)
    }
}
