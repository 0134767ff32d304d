import RPCCore

extension FilterEvent.ActionError {
    /// The error object of a refused Session action.
    public init(_ error: RPCError) {
        self.init(
            code: error.code.connectName, message: error.message, reason: error.detail?.reason, field: error.detail?.field,
            details: error.detail?.details)
    }

    /// The error the action was refused with; UNKNOWN for a code this version does not know.
    public var rpcError: RPCError {
        let detail = reason.map { ErrorDetail(reason: $0, field: field, details: details) }
        return RPCError(StatusCode(connectName: code) ?? .unknown, message, detail: detail)
    }
}
