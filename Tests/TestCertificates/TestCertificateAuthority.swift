import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority made for one test (P-256), which issues server and client
/// certificates; nothing of it outlives the test process.
///
struct TestCertificateAuthority {
    /// What an issued certificate is for (its extended key usage).
    enum Usage {
        /// A server's: valid for `localhost`, and for `127.0.0.1` with `ipAddress`.
        case server(ipAddress: Bool)
        /// A client's, for mutual TLS.
        case client
    }

    /// The CA's self-signed certificate.
    private let certificate: Certificate
    private let key: P256.Signing.PrivateKey

    /// A new CA whose certificate's subject (and issuer) is `CN=<name>`.
    init(name: String) throws {
        key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName { CommonName(name) }
        let now = Date()
        certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(24 * 3600),
            issuer: subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
    }

    /// The CA's certificate as PEM, for a trust-roots file.
    var certificatePEM: String {
        get throws { try certificate.serializeAsPEM().pemString }
    }

    /// A new key and a certificate for it, signed by this CA.
    func issue(commonName: String, usage: Usage) throws -> TestIdentity {
        let leafKey = P256.Signing.PrivateKey()
        let now = Date()
        let leaf = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(leafKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(24 * 3600),
            issuer: certificate.subject,
            subject: try DistinguishedName { CommonName(commonName) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                switch usage {
                case .server(let ipAddress):
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(
                        [.dnsName("localhost")] + (ipAddress ? [.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))] : []))
                case .client:
                    try ExtendedKeyUsage([.clientAuth])
                }
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        return TestIdentity(certificatePEM: try leaf.serializeAsPEM().pemString, privateKeyPEM: leafKey.pemRepresentation)
    }
}

/// A certificate and its private key, as PEM.
struct TestIdentity {
    let certificatePEM: String
    let privateKeyPEM: String
}
