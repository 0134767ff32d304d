import NIOSSL

/// A TLS error in words for logs and `RPCError` messages, e.g. "the server's certificate is
/// not trusted" rather than BoringSSL's error stack.
package struct TLSFailure: CustomStringConvertible {
    /// What went wrong, in words.
    package let description: String
    /// Whether the peer simply went away (closed during the handshake): not worth a notice.
    package let isPeerGone: Bool

    /// Describes `error`, which the connection to `peer` ("server" or "client") raised.
    package init(_ error: any Error, peer: String) {
        switch error {
        case NIOSSLError.handshakeFailed(.sslError(let stack)) where stack == [.eofDuringHandshake]:
            description = "the \(peer) closed the connection during the TLS handshake"
            isPeerGone = true
        case NIOSSLError.handshakeFailed(.sslError(let stack)), NIOSSLError.shutdownFailed(.sslError(let stack)),
            BoringSSLError.sslError(let stack):
            description = Self.describe(reasons: stack.compactMap(Self.reason), peer: peer)
            isPeerGone = false
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            description = "the \(peer)'s certificate is not valid for the name asked for (\(error))"
            isPeerGone = false
        case NIOSSLError.uncleanShutdown:
            description = "the \(peer) closed the connection without a TLS close_notify"
            isPeerGone = true
        default:
            description = "\(error)"
            isPeerGone = false
        }
    }

    /// The reason of one BoringSSL error, e.g. `CERTIFICATE_VERIFY_FAILED` from
    /// `Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at file.cc:123`.
    private static func reason(_ error: BoringSSLInternalError) -> String? {
        let text = error.description
        guard let start = text.firstRange(of: "error:") else { return nil }
        let fields = text[start.upperBound...].split(separator: ":", maxSplits: 3)
        guard fields.count == 4 else { return nil }
        return String(fields[3].prefix { $0 != " " })
    }

    private static func describe(reasons: [String], peer: String) -> String {
        let known: [(reason: String, meaning: String)] = [
            ("CERTIFICATE_VERIFY_FAILED", "the \(peer)'s certificate is not trusted (not signed by a trusted CA, or expired)"),
            ("WRONG_VERSION_NUMBER", "the \(peer) does not speak TLS (is it using cleartext HTTP/2?)"),
            ("HTTP_REQUEST", "the \(peer) does not speak TLS (it sent an HTTP/1 request)"),
            ("PEER_DID_NOT_RETURN_A_CERTIFICATE", "the \(peer) presented no certificate, and one is required"),
            ("TLSV1_ALERT_CERTIFICATE_REQUIRED", "the \(peer) requires a client certificate"),
            ("TLSV1_ALERT_UNKNOWN_CA", "the \(peer) does not trust our certificate (unknown CA)"),
            ("SSLV3_ALERT_BAD_CERTIFICATE", "the \(peer) refused our certificate"),
            ("SSLV3_ALERT_CERTIFICATE_EXPIRED", "the \(peer) refused our certificate: it expired"),
            ("TLSV1_ALERT_NO_APPLICATION_PROTOCOL", "the \(peer) does not speak HTTP/2 over TLS (ALPN h2)"),
        ]
        for (reason, meaning) in known where reasons.contains(reason) { return meaning }
        return reasons.isEmpty ? "TLS error" : "TLS error " + reasons.joined(separator: ", ")
    }
}
