import NIOSSL

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

    /// The certificate chain and the private key, read from the files.
    func load() throws(TLSFileError) -> (chain: [NIOSSLCertificateSource], key: NIOSSLPrivateKeySource) {
        let chain = try PEMFile.certificates(at: certificateChain).map { NIOSSLCertificateSource.certificate($0) }
        return (chain, .privateKey(try PEMFile.privateKey(at: privateKey)))
    }

    /// A context from `configuration`, which holds these files' certificate and key; a key
    /// that does not belong to the certificate is named as such.
    func makeContext(_ configuration: TLSConfiguration) throws(TLSFileError) -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch NIOSSLError.failedToLoadPrivateKey {
            throw TLSFileError(path: privateKey, problem: "it is not the private key of the certificate in '\(certificateChain)'")
        } catch {
            throw TLSFileError(path: certificateChain, problem: "it cannot be used: \(error)")
        }
    }
}
