import RPCCallLayer
import RPCCore
import RPCHTTP2Core

/// What the connection's calls ask of HTTP/2: heads, trailers and resets through nghttp2.
extension ServerConnectionHandler: CallFrontEnd {
    var isOpen: Bool { state.isOpen }

    /// The response headers of most calls (each content type, no compression, no initial
    /// metadata) and their trailers (OK, nothing else), prepared for nghttp2 once.
    private static let plainGRPCJSONResponse = PreparedHeaderBlock(
        permanent: ResponseFraming.plainHeadFields(.grpcJSON))
    private static let plainGRPCResponse = PreparedHeaderBlock(
        permanent: ResponseFraming.plainHeadFields(.grpc))
    private static let plainGRPCCBORResponse = PreparedHeaderBlock(
        permanent: ResponseFraming.plainHeadFields(.grpcCBOR))
    private static let plainConnectJSONResponse = PreparedHeaderBlock(permanent: ResponseFraming.plainHeadFields(.connectJSON))
    private static let okTrailers = PreparedHeaderBlock(permanent: ResponseTrailers.ok().headerFields(detailTrailer: ErrorDetailNames.generic.trailer))

    func sendResponseHead(_ head: ResponseHead, of stream: CallStream, hasBody: Bool) {
        guard let session else { return }
        switch head {
        case .plain(.grpcJSON):
            _ = session.submitResponse(streamID: stream.id, prepared: Self.plainGRPCJSONResponse, hasBody: hasBody)
        case .plain(.grpc):
            _ = session.submitResponse(streamID: stream.id, prepared: Self.plainGRPCResponse, hasBody: hasBody)
        case .plain(.grpcCBOR):
            _ = session.submitResponse(streamID: stream.id, prepared: Self.plainGRPCCBORResponse, hasBody: hasBody)
        case .plain(.connectJSON):
            _ = session.submitResponse(streamID: stream.id, prepared: Self.plainConnectJSONResponse, hasBody: hasBody)
        case .plain(let contentType):
            _ = session.submitResponse(streamID: stream.id, headers: ResponseFraming.plainHeadFields(contentType), hasBody: hasBody)
        case .fields(let fields):
            _ = session.submitResponse(streamID: stream.id, headers: fields, hasBody: hasBody)
        }
    }

    func resumeResponseBody(of stream: CallStream) {
        session?.resumeData(streamID: stream.id)
    }

    func sendTrailers(_ trailers: ResponseTrailers, of stream: CallStream) {
        guard let session else { return }
        if trailers.isPlainOK {
            session.submitTrailers(streamID: stream.id, prepared: Self.okTrailers)
        } else {
            session.submitTrailers(streamID: stream.id, headers: trailers.headerFields(detailTrailer: configuration.errorDetailNames.trailer))
        }
    }

    func reset(_ stream: CallStream, _ reason: StreamReset) {
        let code =
            switch reason {
            case .refused: HTTP2ErrorCode.refusedStream
            case .cancel: HTTP2ErrorCode.cancel
            case .enhanceYourCalm: HTTP2ErrorCode.enhanceYourCalm
            case .noError: HTTP2ErrorCode.noError
            }
        session?.submitReset(streamID: stream.id, errorCode: code)
    }

    func creditRequestBytes(_ count: Int, of stream: CallStream) {
        session?.consume(streamID: stream.id, count: count)
    }
}
