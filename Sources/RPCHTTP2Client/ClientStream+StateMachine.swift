import RPCCore
import RPCHTTP2Core

extension ClientStream {
    /// The life of one outbound call: the stream feeds it the request it queues and the
    /// response header blocks nghttp2 reports, and performs what it answers. It holds no
    /// buffer and no I/O, so every transition is tested without sockets.
    ///
    /// ```
    /// request:  open ──END_STREAM queued──▶ ended
    ///
    /// response: awaitingHeaders ──headers──▶ receivingMessages ──trailers──▶ ended
    ///                 └──trailers-only, bad headers, reset, deadline, cancel─────▲
    /// ```
    struct StateMachine {
        enum Response: Equatable {
            /// No header block yet.
            case awaitingHeaders
            /// The response headers were accepted: messages may arrive, then the trailers.
            case receivingMessages
            /// The caller was given the call's outcome; everything after is ignored.
            case ended
        }

        private(set) var response = Response.awaitingHeaders
        /// Whether the request's END_STREAM is queued: the body ends once it is sent.
        private(set) var requestEnded = false
        /// The codec of the request's content type (`json`, `cbor`): messages in another fail the call.
        var requestCodec: String?
        /// The trailer that carries the error detail (`HTTP2ClientConfiguration.errorDetailNames`).
        var detailTrailer = ErrorDetailNames.generic.trailer

        /// Whether the caller has the call's outcome.
        var isFinished: Bool { response == .ended }

        /// Whether the request is still being sent although the response ended: the server
        /// answered early, so the stream is reset to stop it.
        var stopsRequest: Bool { isFinished && !requestEnded }

        /// A request message was queued.
        mutating func messageQueued(endOfStream: Bool) {
            if endOfStream { requestEnded = true }
        }

        enum HeadersAction: Equatable {
            /// Nothing: an informational or repeated block, or the call has ended.
            case none
            /// The response headers: messages follow, decompressed with `compression`.
            case receiveMessages(initialMetadata: Metadata, compression: CompressionAlgorithm)
            /// The trailers end the call (`initialMetadata` too when they came alone,
            /// trailers-only); its status is theirs unless the body ended inside a message.
            case end(initialMetadata: Metadata?, trailers: ResponseTrailers)
            /// The response is not a gRPC answer the client can read: the call fails.
            case fail(RPCError)
        }

        /// A header block ended, `endStream` or not.
        mutating func receivedHeaders(_ headers: HeaderList, endStream: Bool) -> HeadersAction {
            switch response {
            case .ended:
                return .none
            case .receivingMessages:
                guard endStream else { return .none }
                response = .ended
                return .end(initialMetadata: nil, trailers: ResponseTrailers(headerFields: headers.fields, detailTrailer: detailTrailer))
            case .awaitingHeaders:
                // A trailers-only answer carries no message, so its codec does not matter.
                if let error = Self.responseError(headers, requestCodec: endStream ? nil : requestCodec) {
                    response = .ended
                    return .fail(error)
                }
                var compression = CompressionAlgorithm.identity
                if let encoding = headers.first("grpc-encoding") {
                    guard let algorithm = CompressionAlgorithm(headerValue: encoding) else {
                        response = .ended
                        return .fail(RPCError(.internalError, "the server used an unsupported grpc-encoding '\(encoding)'"))
                    }
                    compression = algorithm
                }
                let initialMetadata = Metadata(headerFields: headers.fields)
                guard endStream else {
                    response = .receivingMessages
                    return .receiveMessages(initialMetadata: initialMetadata, compression: compression)
                }
                response = .ended
                return .end(initialMetadata: initialMetadata, trailers: ResponseTrailers(headerFields: headers.fields, detailTrailer: detailTrailer))
            }
        }

        /// The call ends for another reason (a deadline, a cancel, a body error, a lost
        /// connection); returns whether the caller still has to be told.
        mutating func end() -> Bool {
            guard response != .ended else { return false }
            response = .ended
            return true
        }

        /// The stream closed; returns the error the caller is told when the call had not
        /// ended (it got no trailers), named by the reset code.
        mutating func streamClosed(errorCode: UInt32) -> RPCError? {
            guard end() else { return nil }
            return switch errorCode {
            case HTTP2ErrorCode.refusedStream: RPCError(.unavailable, "the server refused the stream")
            case HTTP2ErrorCode.cancel: RPCError(.cancelled, "the server cancelled the stream")
            case HTTP2ErrorCode.enhanceYourCalm: RPCError(.resourceExhausted, "the server asked to calm down")
            default:
                RPCError(
                    .internalError, "the stream closed without a status (HTTP/2 error \(errorCode))",
                    detail: ErrorDetail(reason: ErrorDetail.streamResetReason, details: ["http2ErrorCode": .integer(Int64(errorCode))]))
            }
        }

        /// The error a response's first header block stands for, if any.
        static func responseError(_ headers: HeaderList, requestCodec: String?) -> RPCError? {
            let status = headers.first(":status") ?? ""
            guard status == "200" else {
                let code: StatusCode =
                    switch status {
                    case "400": .internalError
                    case "401": .unauthenticated
                    case "403": .permissionDenied
                    case "404": .unimplemented
                    case "429", "502", "503", "504": .unavailable
                    default: .unknown
                    }
                let message = headers.first("grpc-message").map(PercentEncoding.decode) ?? ""
                return RPCError(code, "HTTP status \(status)\(message.isEmpty ? "" : ": \(message)")")
            }
            let contentType = headers.first("content-type") ?? ""
            guard contentType.hasPrefix("application/grpc") else {
                return RPCError(.internalError, "unexpected response content-type '\(contentType)'")
            }
            if let requestCodec, let answered = ContentType(headerValue: contentType), answered.codecName != requestCodec {
                return RPCError(
                    .internalError, "the server answered a \(requestCodec) call in \(answered.codecName) (content-type '\(contentType)')")
            }
            return nil
        }
    }
}
