/// The TLS flags of a command line: `--tls`, `--cacert`, `--cert`, `--key`, `--insecure`.
package struct TLSFlags: Hashable, Sendable {
    /// `--tls`: use TLS (with the system's CAs unless `caFile` names others).
    package var tls: Bool
    /// `--cacert FILE`.
    package var caFile: String?
    /// `--cert FILE`.
    package var certificate: String?
    /// `--key FILE`.
    package var key: String?
    /// `--insecure`: accept any server certificate (tests only).
    package var insecure: Bool

    package init(tls: Bool = false, caFile: String? = nil, certificate: String? = nil, key: String? = nil, insecure: Bool = false) {
        self.tls = tls
        self.caFile = caFile
        self.certificate = certificate
        self.key = key
        self.insecure = insecure
    }
}
