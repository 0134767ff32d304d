import RPCCore

/// Decides, from a request's header list alone, whether a call can start: the protocol's
/// checks, then the router's authorizer.
enum RequestValidation {
    /// A call ready to run.
    struct Accepted {
        var head: RequestHead
        var route: Route
        var requestCompression: CompressionAlgorithm
        var responseCompression: CompressionAlgorithm

        /// Who the router's authorizer says is calling, for the access log.
        var caller: String? { head.caller }
    }

    /// An answer sent before any handler runs: HTTP status plus trailers-only gRPC status.
    struct Rejected: Error {
        var httpStatus: Int
        var contentType: String
        var trailers: ResponseTrailers
        var extraHeaders: [(name: String, value: String)] = []
        /// Who the router's authorizer says was refused, for the access log.
        var caller: String?

        /// The complete header block of the trailers-only response.
        var headerFields: [(name: String, value: String)] {
            [(":status", String(httpStatus)), ("content-type", contentType)] + extraHeaders + trailers.headerFields
        }
    }

    /// - Parameters:
    ///   - connection: the connection the request came on, for the call's head.
    ///   - recentRoute: the route of the connection's previous call and its path, found again
    ///     without a lookup when this call's path is the same.
    ///   - now: read only when the call has a deadline.
    static func validate(
        _ headers: RequestHeaders,
        router: Router,
        peer: String,
        connection: ConnectionIdentity,
        recentRoute: (path: String, route: Route)? = nil,
        now: @autoclosure () -> ContinuousClock.Instant = .now
    ) -> Result<Accepted, Rejected> {
        if headers.overflowed {
            return .failure(reject(
                .resourceExhausted,
                "request header list is larger than the limit of \(headers.limit) bytes",
                contentType: "application/grpc"
            ))
        }
        guard let rawContentType = headers.contentType, let contentType = ContentType(headerValue: rawContentType)
        else {
            let given = headers.contentType ?? "none"
            return .failure(Rejected(
                httpStatus: 415,
                contentType: "application/grpc",
                trailers: ResponseTrailers(code: .internalError, message: "unsupported content-type '\(given)'")
            ))
        }
        let echoed = contentType.headerValue
        guard headers.method == "POST" else {
            return .failure(Rejected(
                httpStatus: 405,
                contentType: echoed,
                trailers: ResponseTrailers(code: .unimplemented, message: "gRPC calls use POST"),
                extraHeaders: [("allow", "POST")]
            ))
        }
        let path = headers.path ?? ""
        let knownRoute = recentRoute.flatMap { $0.path == path ? $0.route : nil }
        guard let route = knownRoute ?? router.route(for: path) else {
            return .failure(reject(.unimplemented, "unknown method '\(path)'", contentType: echoed))
        }
        var requestCompression = CompressionAlgorithm.identity
        if let encoding = headers.encoding {
            guard let algorithm = CompressionAlgorithm(headerValue: encoding) else {
                var rejected = reject(.unimplemented, "unsupported grpc-encoding '\(encoding)'", contentType: echoed)
                rejected.extraHeaders = [("grpc-accept-encoding", CompressionAlgorithm.acceptEncodingHeader)]
                return .failure(rejected)
            }
            requestCompression = algorithm
        }
        var deadline: ContinuousClock.Instant?
        if let timeout = headers.timeout {
            guard let duration = GRPCTimeout.parse(timeout) else {
                return .failure(reject(.invalidArgument, "malformed grpc-timeout '\(timeout)'", contentType: echoed))
            }
            // A timeout of zero has passed already: no handler runs.
            guard duration > .zero else {
                return .failure(reject(.deadlineExceeded, "deadline exceeded (grpc-timeout '\(timeout)')", contentType: echoed))
            }
            deadline = now() + duration
        }
        var responseCompression = CompressionAlgorithm.identity
        if requestCompression != .identity, let accepted = headers.acceptEncoding,
            accepted.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == requestCompression.name })
        {
            responseCompression = requestCompression
        }
        var head = RequestHead(
            path: path,
            contentType: contentType,
            metadata: headers.metadata,
            deadline: deadline,
            peer: peer,
            connection: connection
        )
        let authorization = router.authorize(head, for: route)
        if let refusal = authorization.refusal {
            return .failure(Rejected(
                httpStatus: 200, contentType: echoed, trailers: ResponseTrailers(error: refusal), caller: authorization.caller))
        }
        head.caller = authorization.caller
        return .success(Accepted(
            head: head,
            route: route,
            requestCompression: requestCompression,
            responseCompression: responseCompression
        ))
    }

    /// A trailers-only answer with `trailers` to a request that is refused before it is looked
    /// at (a refused connection, a call over the rate limit); echoes a valid content type.
    static func refuse(_ headers: RequestHeaders, with trailers: ResponseTrailers) -> Rejected {
        let contentType = headers.contentType.flatMap(ContentType.init(headerValue:))
        return Rejected(httpStatus: 200, contentType: contentType?.headerValue ?? "application/grpc", trailers: trailers)
    }

    private static func reject(_ code: StatusCode, _ message: String, contentType: String) -> Rejected {
        Rejected(httpStatus: 200, contentType: contentType, trailers: ResponseTrailers(code: code, message: message))
    }
}
