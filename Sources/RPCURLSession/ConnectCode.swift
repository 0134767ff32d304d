import RPCCore

/// Connect's names of status codes, and the code of an HTTP status that carries no Connect error.
enum ConnectCode {
    /// The status code Connect names `name` (`not_found`; `canceled` for CANCELLED); `nil`
    /// for a name it does not define.
    static func statusCode(named name: String) -> StatusCode? {
        name == "ok" ? nil : StatusCode(connectName: name)
    }

    /// The code of an HTTP status whose body is not a Connect error (a proxy's page, say), as
    /// connect-go maps it, after gRPC's table of HTTP statuses.
    static func statusCode(httpStatus: Int) -> StatusCode {
        switch httpStatus {
        case 400: .internalError
        case 401: .unauthenticated
        case 403: .permissionDenied
        case 404: .unimplemented
        case 429, 502, 503, 504: .unavailable
        default: .unknown
        }
    }
}
