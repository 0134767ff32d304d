import RPCCore

/// Connect's error object: the JSON body of a unary call that failed, and the `error` of a
/// stream's end-of-stream message:
/// `{"code": "not_found", "message": "…", "details": [{"type": "…", "value": "<base64>"}]}`.
struct ConnectErrorBody: Decodable, Sendable {
    var code: String?
    var message: String?
    var details: [Detail]?

    struct Detail: Decodable, Sendable {
        var type: String?
        /// Unpadded base64 of the detail's bytes; for the service's detail type the JSON of an
        /// `ErrorDetail`, as its gRPC trailer carries it.
        var value: String?
    }

    /// The error this object stands for, with `metadata` and the detail of type `detailType`;
    /// a code missing or not Connect's becomes `fallback`.
    func rpcError(fallback: StatusCode, metadata: Metadata, detailType: String) -> RPCError {
        let code = code.flatMap(ConnectCode.statusCode(named:)) ?? fallback
        return RPCError(code, message ?? "", detail: errorDetail(ofType: detailType), metadata: metadata)
    }

    /// The service's detail, from the first of type `type` that decodes.
    private func errorDetail(ofType type: String) -> ErrorDetail? {
        for detail in details ?? [] where detail.type == type {
            guard let value = detail.value, let bytes = Base64.decode(value) else { continue }
            if let decoded = try? JSONCodec.shared.decode(ErrorDetail.self, from: bytes) { return decoded }
        }
        return nil
    }

    /// The error of a unary answer (or of a stream refused before it began) with HTTP status
    /// `httpStatus` and body `body`: the Connect error it holds, or, when it holds none, the
    /// code of the HTTP status with the status and the start of the body as its message.
    static func error(httpStatus: Int, body: [UInt8], metadata: Metadata, detailType: String) -> RPCError {
        let fallback = ConnectCode.statusCode(httpStatus: httpStatus)
        if let object = try? JSONCodec.shared.decode(ConnectErrorBody.self, from: body), object.code != nil {
            return object.rpcError(fallback: fallback, metadata: metadata, detailType: detailType)
        }
        let excerpt = String(decoding: body.prefix(200), as: UTF8.self)
        let message = "HTTP status \(httpStatus) without a Connect error" + (excerpt.isEmpty ? "" : ": \(excerpt)")
        return RPCError(fallback, message, metadata: metadata)
    }
}

/// The message of Connect's end-of-stream envelope (flag `0x02`): `{}` after success, else
/// `{"error": {…}}`, either with the trailing metadata as `"metadata": {"key": ["value"]}`.
struct EndOfStreamMessage: Decodable, Sendable {
    var error: ConnectErrorBody?
    var metadata: [String: [String]]?

    /// The trailing metadata it carries, `-bin` values decoded.
    var trailingMetadata: Metadata {
        var result = Metadata()
        for (name, values) in (metadata ?? [:]).sorted(by: { $0.key < $1.key }) {
            for value in values { result.addReceived(name.lowercased(), value) }
        }
        return result
    }
}
