import NIOSSL
import RPCHTTP2Core

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the PEM files of TLS credentials; each failure names the file and the problem.
package enum PEMFile {
    /// The certificates in the file at `path`, in order; at least one.
    package static func certificates(at path: String) throws(TLSFileError) -> [NIOSSLCertificate] {
        let bytes = try contents(of: path)
        do {
            return try NIOSSLCertificate.fromPEMBytes(bytes)
        } catch {
            throw TLSFileError(path: path, problem: "it holds no readable PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
    }

    /// The private key in the file at `path`.
    package static func privateKey(at path: String) throws(TLSFileError) -> NIOSSLPrivateKey {
        let bytes = try contents(of: path)
        do {
            return try NIOSSLPrivateKey(bytes: bytes, format: .pem)
        } catch {
            throw TLSFileError(path: path, problem: "it is not an unencrypted PEM private key")
        }
    }

    private static func contents(of path: String) throws(TLSFileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw readFailure(path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[..<count]
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw readFailure(path)
            }
        }
    }

    private static func readFailure(_ path: String) -> TLSFileError {
        TLSFileError(path: path, problem: "cannot read it: \(String(cString: strerror(errno)))")
    }
}
