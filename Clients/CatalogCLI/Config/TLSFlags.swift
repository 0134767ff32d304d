/// The TLS flags of a command line: `--tls`, `--cacert`, `--cert`, `--key`, `--insecure`.
public struct TLSFlags: Hashable, Sendable {
    /// `--tls`: use TLS (with the system's CAs unless `caFile` names others).
    public var tls: Bool
    /// `--cacert FILE`.
    public var caFile: String?
    /// `--cert FILE`.
    public var certificate: String?
    /// `--key FILE`.
    public var key: String?
    /// `--insecure`: accept any server certificate (tests only).
    public var insecure: Bool

    public init(tls: Bool = false, caFile: String? = nil, certificate: String? = nil, key: String? = nil, insecure: Bool = false) {
        self.tls = tls
        self.caFile = caFile
        self.certificate = certificate
        self.key = key
        self.insecure = insecure
    }
}
