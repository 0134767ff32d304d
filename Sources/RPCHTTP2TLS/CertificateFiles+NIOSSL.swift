import NIOSSL
import RPCHTTP2Core

extension CertificateFiles {
    /// The certificate chain and the private key, read from the files.
    package func load() throws(TLSFileError) -> (chain: [NIOSSLCertificateSource], key: NIOSSLPrivateKeySource) {
        let chain = try PEMFile.certificates(at: certificateChain).map { NIOSSLCertificateSource.certificate($0) }
        return (chain, .privateKey(try PEMFile.privateKey(at: privateKey)))
    }

    /// A context from `configuration`, which holds these files' certificate and key; a key
    /// that does not belong to the certificate is named as such.
    package func makeContext(_ configuration: TLSConfiguration) throws(TLSFileError) -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch NIOSSLError.failedToLoadPrivateKey {
            throw TLSFileError(path: privateKey, problem: "it is not the private key of the certificate in '\(certificateChain)'")
        } catch {
            throw TLSFileError(path: certificateChain, problem: "it cannot be used: \(error)")
        }
    }
}
