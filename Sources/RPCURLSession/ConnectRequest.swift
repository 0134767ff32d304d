import Foundation
import RPCCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP request of one Connect call: `POST <base URL>/<service>/<Method>` with Connect's
/// headers, the call's metadata, and the request message as its body.
enum ConnectRequest {
    /// The request of a call of `method` with `message`.
    ///
    /// - Parameters:
    ///   - baseURL: Where the service's paths start.
    ///   - method: The method called; its kind chooses unary or streaming Connect.
    ///   - codec: How the message is encoded.
    ///   - options: The call's metadata.
    ///   - remaining: What is left of the call's deadline, sent as `connect-timeout-ms`; `nil`: none.
    ///   - message: The encoded request message, bare.
    static func make(
        baseURL: URL, method: MethodDescriptor, codec: URLSessionTransport.Codec, options: CallOptions,
        remaining: Duration?, message: [UInt8]
    ) -> URLRequest {
        var request = URLRequest(url: url(baseURL, method))
        request.httpMethod = "POST"
        for (name, value) in options.metadata.headerFields where !isProtocolHeader(name) {
            request.addValue(value, forHTTPHeaderField: name)
        }
        let streaming = method.kind.serverStreaming
        request.setValue(codec.wireContentType(method.kind).headerValue, forHTTPHeaderField: "content-type")
        request.setValue("1", forHTTPHeaderField: "connect-protocol-version")
        if let remaining {
            request.setValue(String(timeoutMilliseconds(remaining)), forHTTPHeaderField: "connect-timeout-ms")
        }
        if streaming {
            // Compressed envelopes would need zlib, which URLSession does not offer: the
            // server sends plain ones when `connect-accept-encoding` asks for nothing else.
            request.setValue("identity", forHTTPHeaderField: "connect-accept-encoding")
            // A watch is quiet between its heartbeats: URLSession's idle timeout must not end it.
            request.timeoutInterval = streamIdleTimeout
        } else {
            // URLSession undoes a gzip body itself, as it undoes any `content-encoding` it knows.
            request.setValue("gzip", forHTTPHeaderField: "accept-encoding")
        }
        request.httpBody = Data(streaming ? EnvelopeReader.envelope(message) : message)
        return request
    }

    /// `baseURL` followed by the method's path, whether or not `baseURL` ends in `/`.
    static func url(_ baseURL: URL, _ method: MethodDescriptor) -> URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + method.path) ?? baseURL.appendingPathComponent(method.service).appendingPathComponent(method.method)
    }

    /// `connect-timeout-ms`: whole milliseconds, rounded up so that the server never ends a call
    /// before its deadline, at least 1, and at most the 10 digits Connect allows.
    static func timeoutMilliseconds(_ remaining: Duration) -> Int64 {
        let (seconds, attoseconds) = remaining.components
        guard seconds < 9_999_999 else { return 9_999_999_999 }
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return max(1, milliseconds)
    }

    /// URLSession's idle timeout of a streaming call, in seconds: a week. (libcurl, under
    /// URLSession on Linux, takes it in whole milliseconds, so it must stay finite.)
    static let streamIdleTimeout: TimeInterval = 7 * 24 * 3600

    /// Whether metadata named `name` would clash with the headers the protocol sets: gRPC's
    /// and HTTP's own (see `Metadata.isReserved`), Connect's, and the content codings.
    private static func isProtocolHeader(_ name: String) -> Bool {
        Metadata.isReserved(name) || name.hasPrefix("connect-") || name == "accept-encoding" || name == "content-encoding"
    }
}
