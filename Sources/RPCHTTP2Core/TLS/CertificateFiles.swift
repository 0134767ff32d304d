/// A certificate chain and the private key of its first certificate, as paths of PEM files.
public struct CertificateFiles: Sendable, Hashable {
    /// The certificate first, then the intermediate certificates that lead to the CA, if any.
    public var certificateChain: String
    /// The private key of the certificate, unencrypted (PKCS #8, SEC 1 or PKCS #1).
    public var privateKey: String

    /// The PEM files of a certificate chain and of its key.
    public init(certificateChain: String, privateKey: String) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }
}
