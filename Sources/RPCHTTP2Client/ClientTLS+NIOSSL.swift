#if ClientTLS
import NIOSSL
import RPCHTTP2Core
import RPCHTTP2TLS

extension ClientTLS {
    /// A context with these settings; it reads the files (blocking), so not on an event loop.
    func makeContext() throws(TLSFileError) -> NIOSSLContext {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["h2"]
        if insecure {
            configuration.certificateVerification = .none
        } else if let caFile {
            configuration.trustRoots = .certificates(try PEMFile.certificates(at: caFile))
        }
        guard let clientCertificate else {
            do {
                return try NIOSSLContext(configuration: configuration)
            } catch {
                throw TLSFileError(path: caFile ?? "the system trust store", problem: "it cannot be used: \(error)")
            }
        }
        let (chain, key) = try clientCertificate.load()
        configuration.certificateChain = chain
        configuration.privateKey = key
        return try clientCertificate.makeContext(configuration)
    }
}
#endif
