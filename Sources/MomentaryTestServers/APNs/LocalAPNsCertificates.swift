import Crypto
import Foundation
import X509

/// A throwaway certificate authority and a server certificate it signed for 127.0.0.1 and
/// `localhost`, made in memory when a local server starts. Clients trust the CA (e.g. through
/// `APNS_CA_FILE`) and so verify the server exactly as they would verify Apple's.
public struct LocalAPNsCertificates: Sendable {
    /// The CA certificate, PEM: what a client adds to its trusted roots.
    public let certificateAuthorityPEM: String
    /// The server's certificate, PEM.
    public let serverCertificatePEM: String
    /// The server's private key, PEM (PKCS #8).
    public let serverPrivateKeyPEM: String

    public static func generate(now: Date = Date()) throws -> LocalAPNsCertificates {
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName {
            OrganizationName("Momentary tests")
            CommonName("Momentary local test CA")
        }
        let notBefore = now.addingTimeInterval(-3600)
        let notAfter = now.addingTimeInterval(7 * 86400)
        let ca = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(caKey.publicKey),
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: caName,
            subject: caName,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey)
        )

        let serverKey = P256.Signing.PrivateKey()
        let server = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(serverKey.publicKey),
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: caName,
            subject: try DistinguishedName { CommonName("localhost") },
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(.init(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey)
        )

        return LocalAPNsCertificates(
            certificateAuthorityPEM: try ca.serializeAsPEM().pemString,
            serverCertificatePEM: try server.serializeAsPEM().pemString,
            serverPrivateKeyPEM: serverKey.pemRepresentation
        )
    }
}
