import RPCCore

/// How the Connect protocol tells a call's status: the HTTP status of a unary answer, and the
/// error JSON of a unary body or an end-of-stream envelope, with the contract's detail.
enum ConnectError {
    /// Connect's name of a status code, e.g. `not_found` (and `canceled` for CANCELLED).
    static func codeName(_ code: StatusCode) -> String {
        code == .cancelled ? "canceled" : code.name.lowercased()
    }

    /// The HTTP status of a unary answer that failed with `code`, as connect-go maps it.
    static func httpStatus(_ code: StatusCode) -> Int {
        switch code {
        case .cancelled: 499
        case .invalidArgument, .failedPrecondition, .outOfRange: 400
        case .unauthenticated: 401
        case .permissionDenied: 403
        case .notFound: 404
        case .alreadyExists, .aborted: 409
        case .resourceExhausted: 429
        case .unimplemented: 501
        case .unavailable: 503
        case .deadlineExceeded: 504
        default: 500
        }
    }

    /// The error object: `code`, `message` and the contract's detail as a `catalog.v1.ErrorInfo`.
    static func json(_ trailers: ResponseTrailers) -> [UInt8] {
        (try? JSONCodec.shared.encode(ErrorObject(trailers))) ?? Array(#"{"code":"internal"}"#.utf8)
    }

    /// The end-of-stream message: `{}` after success, else the error and the trailing metadata.
    static func endOfStreamJSON(_ trailers: ResponseTrailers) -> [UInt8] {
        let metadata = Dictionary(grouping: trailers.metadata.headerFields.filter { $0.name != ErrorDetail.metadataKey }, by: \.name)
            .mapValues { $0.map(\.value) }
        let end = EndOfStream(error: trailers.code == .ok ? nil : ErrorObject(trailers), metadata: metadata.isEmpty ? nil : metadata)
        return (try? JSONCodec.shared.encode(end)) ?? Array("{}".utf8)
    }

    /// The type name of the contract's error detail in Connect's `details`.
    static let detailType = "catalog.v1.ErrorInfo"

    private struct ErrorObject: Encodable {
        var code: String
        var message: String?
        var details: [Detail]?

        struct Detail: Encodable {
            var type: String
            /// Unpadded base64 of the detail's JSON, as `catalog-error-bin` carries it.
            var value: String
            var debug: ErrorDetail
        }

        init(_ trailers: ResponseTrailers) {
            code = ConnectError.codeName(trailers.code)
            message = trailers.message.isEmpty ? nil : trailers.message
            if let detail = trailers.detail, let bytes = try? JSONCodec.shared.encode(detail) {
                details = [Detail(type: ConnectError.detailType, value: Base64.encode(bytes).replacing("=", with: ""), debug: detail)]
            }
        }
    }

    private struct EndOfStream: Encodable {
        var error: ErrorObject?
        var metadata: [String: [String]]?
    }
}
