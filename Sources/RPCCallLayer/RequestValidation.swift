import RPCCore
import RPCFraming

/// Decides, from a request's header list alone, whether a call can start: its protocol's
/// checks (gRPC, gRPC-Web or Connect, chosen by the content type), then the router's
/// authorizer. The same over HTTP/1.1 and HTTP/2.
package enum RequestValidation {
    /// A call ready to run.
    struct Accepted {
        var head: RequestHead
        var route: Route
        var requestShape: InboundBody.Shape
        var requestCompression: CompressionAlgorithm
        var responseCompression: CompressionAlgorithm
        /// The message of a Connect GET, which has no body.
        var queryMessage: [UInt8]?

        /// Who the router's authorizer says is calling, for the access log.
        var caller: String? { head.caller }
    }

    /// An answer sent before any handler runs, in the request's protocol.
    package struct Rejected: Error {
        /// The HTTP status, when the protocol's own for the code does not apply (415, 405, …).
        var httpStatus: Int?
        /// The request's content type, when it is one this server speaks.
        var contentType: ContentType?
        var trailers: ResponseTrailers
        var extraHeaders: [(name: String, value: String)] = []
        /// Who the router's authorizer says was refused, for the access log.
        var caller: String?

        package init(
            httpStatus: Int? = nil, contentType: ContentType? = nil, trailers: ResponseTrailers,
            extraHeaders: [(name: String, value: String)] = [], caller: String? = nil
        ) {
            self.httpStatus = httpStatus
            self.contentType = contentType
            self.trailers = trailers
            self.extraHeaders = extraHeaders
            self.caller = caller
        }

        /// The answer's head, and its body in a protocol whose errors are one (Connect); the
        /// error detail goes under `detailNames`.
        package func answer(detailNames: ErrorDetailNames) -> (head: ResponseHead, body: [UInt8]?) {
            switch contentType?.framing {
            case .connectUnary?:
                let status = httpStatus ?? ConnectError.httpStatus(trailers.code)
                let fields = [(":status", String(status)), ("content-type", "application/json")] + extraHeaders
                return (.fields(fields), ConnectError.json(trailers, names: detailNames))
            case .connectStreaming? where httpStatus == nil:
                let fields = [(":status", "200"), ("content-type", contentType!.headerValue)] + extraHeaders
                return (.fields(fields), ResponseFraming.endOfStream(trailers, detailNames: detailNames))
            case .grpc?, .grpcWeb?, .grpcWebText?, .connectStreaming?, nil:
                let echoed = contentType?.headerValue ?? "application/grpc"
                let fields = [(":status", String(httpStatus ?? 200)), ("content-type", echoed)] + extraHeaders + trailers.headerFields(detailTrailer: detailNames.trailer)
                return (.fields(fields), nil)
            }
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
    ) throws(Rejected) -> Accepted {
        if headers.overflowed {
            throw reject(
                .resourceExhausted, "request header list is larger than the limit of \(headers.limit) bytes", contentType: nil)
        }
        var path = headers.path ?? ""
        var query: ConnectQuery?
        let contentType: ContentType
        if headers.method == "GET", let mark = path.firstIndex(of: "?") {
            // Connect's GET form: the message and its encoding are in the query.
            let parsed = ConnectQuery(path[path.index(after: mark)...])
            path = String(path[..<mark])
            guard let encoding = router.contentType(connectEncoding: parsed.encoding ?? "") else {
                throw Rejected(
                    httpStatus: 415, contentType: .connectJSON,
                    trailers: ResponseTrailers(code: .invalidArgument, message: "unsupported GET encoding '\(parsed.encoding ?? "none")'"))
            }
            contentType = encoding
            query = parsed
        } else {
            guard let raw = headers.contentType, let known = router.contentType(headerValue: raw) else {
                let given = headers.contentType ?? "none"
                throw Rejected(
                    httpStatus: 415, contentType: nil,
                    trailers: ResponseTrailers(code: .internalError, message: "unsupported content-type '\(given)'"),
                    extraHeaders: [("accept-post", router.acceptedContentTypes.map(\.headerValue).joined(separator: ", "))])
            }
            contentType = known
        }
        let isConnect = contentType.framing == .connectUnary || contentType.framing == .connectStreaming
        guard headers.method == "POST" || query != nil else {
            let message = isConnect ? "\(path) takes POST, or GET for a read" : "gRPC calls use POST"
            throw Rejected(
                httpStatus: 405, contentType: contentType, trailers: ResponseTrailers(code: .unimplemented, message: message),
                extraHeaders: [("allow", isConnect ? "POST, GET" : "POST")])
        }
        let knownRoute = recentRoute.flatMap { $0.path == path ? $0.route : nil }
        guard let route = knownRoute ?? router.route(for: path) else {
            var rejected = reject(.unimplemented, "unknown method '\(path)'", contentType: contentType)
            if isConnect { rejected.httpStatus = 404 }
            throw rejected
        }
        if isConnect, let version = headers.connectVersion ?? query?.connect.map({ $0 == "v1" ? "1" : $0 }), version != "1" {
            throw Rejected(
                httpStatus: 400, contentType: contentType,
                trailers: ResponseTrailers(code: .invalidArgument, message: "unsupported connect-protocol-version '\(version)'"))
        }
        if isConnect, let mismatch = mismatchedKind(contentType, route.descriptor) {
            throw Rejected(
                httpStatus: 415, contentType: contentType, trailers: ResponseTrailers(code: .internalError, message: mismatch))
        }
        if query != nil, !router.readOnlyPaths.contains(path) {
            throw Rejected(
                httpStatus: 405, contentType: contentType,
                trailers: ResponseTrailers(code: .unimplemented, message: "\(path) changes state: call it with POST"),
                extraHeaders: [("allow", "POST")])
        }
        let coding =
            isConnect
            ? try connectCodings(headers, contentType: contentType, query: query) : try grpcCodings(headers, contentType: contentType)
        let deadline = try timeout(headers, isConnect: isConnect, contentType: contentType).map { now() + $0 }
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
            throw Rejected(contentType: contentType, trailers: ResponseTrailers(error: refusal), caller: authorization.caller)
        }
        head.caller = authorization.caller
        let shape: InboundBody.Shape =
            switch contentType.framing {
            case .connectUnary: .wholeBody(coding.request)
            case .grpcWebText: .base64Envelopes
            case .grpc, .grpcWeb, .connectStreaming: .envelopes
            }
        return Accepted(
            head: head,
            route: route,
            requestShape: shape,
            requestCompression: contentType.framing == .connectUnary ? .identity : coding.request,
            responseCompression: coding.response,
            queryMessage: query?.message
        )
    }

    /// A trailers-only answer with `trailers` to a request that is refused before it is looked
    /// at (a refused connection, a call over the rate limit), in its protocol when it has one.
    package static func refuse(_ headers: RequestHeaders, with trailers: ResponseTrailers, router: Router) -> Rejected {
        var contentType = headers.contentType.flatMap(router.contentType(headerValue:))
        if contentType == nil, headers.method == "GET" { contentType = .connectJSON }
        return Rejected(contentType: contentType, trailers: trailers)
    }

    private static func reject(_ code: StatusCode, _ message: String, contentType: ContentType?) -> Rejected {
        Rejected(contentType: contentType, trailers: ResponseTrailers(code: code, message: message))
    }

    /// Why a Connect content type does not fit the method's kind (unary types for unary
    /// methods, streaming types for streaming ones), if it does not.
    private static func mismatchedKind(_ contentType: ContentType, _ method: MethodDescriptor) -> String? {
        switch (contentType.framing, method.kind == .unary) {
        case (.connectUnary, false):
            return "\(method.path) streams: call it with application/connect+json or application/connect+cbor"
        case (.connectStreaming, true):
            return "\(method.path) is unary: call it with application/json or application/cbor"
        default:
            return nil
        }
    }

    /// How a call's request and response are compressed.
    private struct Codings {
        var request = CompressionAlgorithm.identity
        var response = CompressionAlgorithm.identity
    }

    private static func grpcCodings(_ headers: RequestHeaders, contentType: ContentType) throws(Rejected) -> Codings {
        var codings = Codings()
        if let encoding = headers.encoding {
            guard let algorithm = CompressionAlgorithm(headerValue: encoding) else {
                var rejected = reject(.unimplemented, "unsupported grpc-encoding '\(encoding)'", contentType: contentType)
                rejected.extraHeaders = [("grpc-accept-encoding", CompressionAlgorithm.acceptEncodingHeader)]
                throw rejected
            }
            codings.request = algorithm
        }
        if codings.request != .identity, let accepted = headers.acceptEncoding, accepts(accepted, codings.request) {
            codings.response = codings.request
        }
        return codings
    }

    private static func connectCodings(
        _ headers: RequestHeaders, contentType: ContentType, query: ConnectQuery?
    ) throws(Rejected) -> Codings {
        let streaming = contentType.framing == .connectStreaming
        var codings = Codings()
        let encoding = streaming ? headers.connectContentEncoding : (query?.compression ?? headers.contentEncoding)
        if let encoding, encoding != "identity" {
            guard let algorithm = CompressionAlgorithm(headerValue: encoding) else {
                throw Rejected(
                    contentType: contentType, trailers: ResponseTrailers(code: .unimplemented, message: "unsupported encoding '\(encoding)'"),
                    extraHeaders: [(streaming ? "connect-accept-encoding" : "accept-encoding", CompressionAlgorithm.acceptEncodingHeader)])
            }
            codings.request = algorithm
        }
        if let accepted = streaming ? headers.connectAcceptEncoding : headers.httpAcceptEncoding, accepts(accepted, .gzip) {
            codings.response = .gzip
        }
        return codings
    }

    private static func accepts(_ header: String, _ algorithm: CompressionAlgorithm) -> Bool {
        header.split(separator: ",").contains { $0.split(separator: ";").first?.trimmingHTTPWhitespace() == Substring(algorithm.name) }
    }

    /// The call's timeout: `grpc-timeout`, or Connect's `connect-timeout-ms`.
    private static func timeout(_ headers: RequestHeaders, isConnect: Bool, contentType: ContentType) throws(Rejected) -> Duration? {
        if isConnect {
            guard let value = headers.connectTimeout else { return nil }
            guard value.count <= 10, let milliseconds = Int64(value), milliseconds >= 0 else {
                throw reject(.invalidArgument, "malformed connect-timeout-ms '\(value)'", contentType: contentType)
            }
            guard milliseconds > 0 else {
                throw reject(.deadlineExceeded, "deadline exceeded (connect-timeout-ms '0')", contentType: contentType)
            }
            return .milliseconds(milliseconds)
        }
        guard let timeout = headers.timeout else { return nil }
        guard let duration = GRPCTimeout.parse(timeout) else {
            throw reject(.invalidArgument, "malformed grpc-timeout '\(timeout)'", contentType: contentType)
        }
        // A timeout of zero has passed already: no handler runs.
        guard duration > .zero else {
            throw reject(.deadlineExceeded, "deadline exceeded (grpc-timeout '\(timeout)')", contentType: contentType)
        }
        return duration
    }
}
