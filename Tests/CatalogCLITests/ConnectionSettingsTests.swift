import CatalogCLI
import CatalogKit
import Testing

/// How `ConnectionSettings.resolve` picks the TLS settings: flag over the named context over
/// the environment over the current context, and what turns TLS on.
@Suite("TLS settings: flag over context over environment")
struct ConnectionSettingsTests {
    private static let configPath = "/home/me/.config/catalog/config.json"
    private static let config = ConfigFile(
        current: "current",
        contexts: [
            "current": ConfigFile.Context(server: "current.example:50051", cacert: "current-ca.pem"),
            "named": ConfigFile.Context(server: "named.example:50051", cacert: "/etc/named-ca.pem", insecure: false),
            "plain": ConfigFile.Context(server: "plain.example:50051"),
        ])

    private func tls(
        flags: TLSFlags = TLSFlags(), context: String? = nil, environment: [String: String] = [:],
        config: ConfigFile = Self.config
    ) throws -> ClientTLS? {
        try ConnectionSettings.resolve(
            serverFlag: nil, contextFlag: context, tlsFlags: flags, environment: environment, config: config,
            configPath: Self.configPath
        ).tls
    }

    @Test("each CA file source in turn; a context's relative path is relative to the config file")
    func caFilePrecedence() throws {
        let environment = ["CATALOG_CACERT": "env-ca.pem"]
        #expect(try tls(flags: TLSFlags(caFile: "flag-ca.pem"), context: "named", environment: environment)?.caFile == "flag-ca.pem")
        #expect(try tls(context: "named", environment: environment)?.caFile == "/etc/named-ca.pem")
        #expect(try tls(environment: environment)?.caFile == "env-ca.pem")
        #expect(try tls()?.caFile == "/home/me/.config/catalog/current-ca.pem")
    }

    @Test("no TLS setting anywhere and no https:// server: cleartext")
    func cleartext() throws {
        let plain = ConfigFile(current: "plain", contexts: Self.config.contexts)
        #expect(try tls(config: plain) == nil)
        #expect(try tls(environment: ["CATALOG_TLS": "0"], config: plain) == nil)
    }

    @Test("--tls, CATALOG_TLS=1, an https:// server, --insecure or a client certificate each turn TLS on")
    func whatTurnsTLSOn() throws {
        let plain = ConfigFile(current: "plain", contexts: Self.config.contexts)
        #expect(try tls(flags: TLSFlags(tls: true), config: plain) == ClientTLS())
        #expect(try tls(environment: ["CATALOG_TLS": "yes"], config: plain) == ClientTLS())
        #expect(try tls(environment: ["CATALOG_SERVER": "https://plain.example"], config: plain) == ClientTLS())
        #expect(try tls(flags: TLSFlags(insecure: true), config: plain) == ClientTLS(insecure: true))
        let https = try ConnectionSettings.resolve(
            serverFlag: "https://catalog.example", contextFlag: nil, environment: [:], config: plain, configPath: Self.configPath)
        #expect(https.tls == ClientTLS() && https.address.port == 443)
        let pair = try tls(environment: ["CATALOG_CERT": "me.pem", "CATALOG_KEY": "me.key"], config: plain)
        #expect(pair?.clientCertificate == CertificateFiles(certificateChain: "me.pem", privateKey: "me.key"))
    }

    @Test("a named context's insecure: false wins over CATALOG_INSECURE=1")
    func namedContextSwitch() throws {
        #expect(try tls(context: "named", environment: ["CATALOG_INSECURE": "1"])?.insecure == false)
        #expect(try tls(environment: ["CATALOG_INSECURE": "1"])?.insecure == true)
    }

    @Test("a context's token and TLS settings go only to its own server, or to any when it names none")
    func contextsKeepToTheirServer() throws {
        let config = ConfigFile(
            current: "current",
            contexts: [
                "current": ConfigFile.Context(server: "current.example:50051", token: "current-token", cacert: "current-ca.pem"),
                "named": ConfigFile.Context(server: "https://named.example", token: "named-token", cacert: "/etc/named-ca.pem"),
                "anywhere": ConfigFile.Context(token: "any-token", insecure: true),
            ])
        func settings(server: String? = nil, context: String? = nil, environment: [String: String] = [:]) throws -> ConnectionSettings {
            try ConnectionSettings.resolve(
                serverFlag: server, contextFlag: context, environment: environment, config: config, configPath: Self.configPath)
        }
        let own = try settings()
        #expect(own.token == "current-token" && own.tls?.caFile == "/home/me/.config/catalog/current-ca.pem")
        let sameServer = try settings(server: "CURRENT.example:50051")
        #expect(sameServer.token == "current-token" && sameServer.tls != nil, "the same host and port")

        let other = try settings(server: "other.example:50051")
        #expect(other.token == nil && other.tls == nil, "--server elsewhere leaves the current context out")
        let otherPort = try settings(environment: ["CATALOG_SERVER": "current.example:50052", "CATALOG_TOKEN": "env-token"])
        #expect(otherPort.token == "env-token" && otherPort.tls == nil, "CATALOG_SERVER elsewhere, CATALOG_TOKEN still applies")

        let named = try settings(server: "named.example:443", context: "named")
        #expect(named.token == "named-token" && named.tls?.caFile == "/etc/named-ca.pem")
        let namedElsewhere = try settings(server: "other.example:443", context: "named", environment: ["CATALOG_TOKEN": "env-token"])
        #expect(namedElsewhere.token == "env-token" && namedElsewhere.tls == nil)

        let anywhere = try settings(server: "other.example:50051", context: "anywhere")
        #expect(anywhere.token == "any-token" && anywhere.tls == ClientTLS(insecure: true))
    }

    @Test("a client certificate without its key is a usage error")
    func halfPair() throws {
        let error = try #require(throws: CLIFailure.self) { try tls(flags: TLSFlags(certificate: "me.pem")) }
        #expect(error.message.contains("needs both --cert and --key"))
    }
}
