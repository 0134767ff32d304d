import RPCCore

/// How the Connect protocol tells a call's status: the HTTP status of a unary answer, and the
/// error JSON of a unary body or an end-of-stream envelope, with the contract's detail.
package enum ConnectError {
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

    /// The error object: `code`, `message` and the detail, of type `names.connectType`.
    package static func json(_ trailers: ResponseTrailers, names: ErrorDetailNames) -> [UInt8] {
        (try? JSONCodec.shared.encode(ErrorObject(trailers, names: names))) ?? Array(#"{"code":"internal"}"#.utf8)
    }

    /// The end-of-stream message: `{}` after success, else the error and the trailing metadata.
    static func endOfStreamJSON(_ trailers: ResponseTrailers, names: ErrorDetailNames) -> [UInt8] {
        let metadata = Dictionary(grouping: trailers.metadata.headerFields.filter { $0.name != names.trailer }, by: \.name)
            .mapValues { $0.map(\.value) }
        let error = trailers.code == .ok ? nil : ErrorObject(trailers, names: names)
        let end = EndOfStream(error: error, metadata: metadata.isEmpty ? nil : metadata)
        return (try? JSONCodec.shared.encode(end)) ?? Array("{}".utf8)
    }

    private struct ErrorObject: Encodable {
        var code: String
        var message: String?
        var details: [Detail]?

        struct Detail: Encodable {
            var type: String
            /// Unpadded base64 of the detail's JSON, as its gRPC trailer carries it.
            var value: String
            var debug: ErrorDetail
        }

        init(_ trailers: ResponseTrailers, names: ErrorDetailNames) {
            code = trailers.code.connectName
            message = trailers.message.isEmpty ? nil : trailers.message
            if let detail = trailers.detail, let bytes = try? JSONCodec.shared.encode(detail) {
                details = [Detail(type: names.connectType, value: Base64.encode(bytes).replacing("=", with: ""), debug: detail)]
            }
        }
    }

    private struct EndOfStream: Encodable {
        var error: ErrorObject?
        var metadata: [String: [String]]?
    }
}
