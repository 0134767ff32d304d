import Foundation
import RPCCore

extension CatalogTestServer {
    /// Calls `method` with `body` as the request's JSON and `authorization` as that header:
    /// the first response message (a unary call is then read to its end, a stream cancelled),
    /// or the error the call ended with before one.
    func firstAnswer(_ method: MethodDescriptor, body: String, authorization: String? = nil) async -> Result<JSONValue, RPCError> {
        var options = CallOptions()
        if let authorization { options.metadata.add("authorization", authorization) }
        do {
            let call = try await connection.openCall(method, options: options)
            // A refused call may be answered before its request is sent; then the status says why.
            let sendFailure: RPCError?
            do {
                try await call.send(Array(body.utf8), endOfStream: true)
                sendFailure = nil
            } catch {
                sendFailure = error
            }
            guard let first = try await call.receive() else {
                throw sendFailure ?? RPCError(.internalError, "\(method) ended without a message or an error")
            }
            if method.kind.serverStreaming {
                call.cancel()
            } else {
                while try await call.receive() != nil {}
            }
            return .success(try JSONCodec().decode(JSONValue.self, from: first))
        } catch {
            return .failure(RPCError(mapping: error))
        }
    }
}
