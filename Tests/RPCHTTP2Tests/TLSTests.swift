import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import RPCCore
import RPCHTTP2
import TestCertificates
import Testing

/// TLS on real loopback sockets, with a CA made by the test: our client and server over TLS
/// with ALPN h2, mutual TLS, and the clear errors of every mismatch.
@Suite("TLS", .timeLimit(.minutes(1)))
struct TLSTests {
    @Test(
        "a unary call and a server stream go through TLS, verified by IP address or by server name",
        arguments: [nil, "localhost"])
    func endToEnd(serverName: String?) async throws {
        let pki = try TestPKI()
        let tls = try pki.serverTLS()
        try await withTestServer(configure: { $0.tls = tls }) { server in
            let connection = try await server.connect(.tls(ClientTLS(caFile: pki.caFile, serverName: serverName)))
            let client = RPCClient(transport: connection)
            #expect(try await client.unary(Echo.get, EchoRequest(text: "sécurisé")) == EchoResponse(text: "sécurisé"))
            var indexes: [Int] = []
            for try await response in try await client.serverStreaming(Echo.expand, EchoRequest(text: "s", count: 100)) {
                indexes.append(response.index ?? -1)
            }
            #expect(indexes == Array(0..<100))
            await connection.close()
        }
    }

    @Test("a server certificate from a CA the client does not trust is refused, saying so")
    func wrongCA() async throws {
        let pki = try TestPKI()
        let other = try TestPKI(name: "Other CA")
        let tls = try pki.serverTLS()
        try await withTestServer(configure: { $0.tls = tls }) { server in
            let error = try await #require(throws: RPCError.self) {
                try await server.connect(.tls(ClientTLS(caFile: other.caFile)))
            }
            #expect(error.code == .unavailable)
            #expect(error.message.contains("TLS handshake failed: the server's certificate is not trusted"), "\(error.message)")
        }
    }

    @Test("a server certificate for another name is refused, naming it", arguments: [nil, "catalog.example"])
    func wrongName(serverName: String?) async throws {
        let pki = try TestPKI(serverIPAddress: false)
        let tls = try pki.serverTLS()
        try await withTestServer(configure: { $0.tls = tls }) { server in
            let error = try await #require(throws: RPCError.self) {
                try await server.connect(.tls(ClientTLS(caFile: pki.caFile, serverName: serverName)))
            }
            #expect(error.code == .unavailable)
            #expect(error.message.contains("the server's certificate is not valid for the name asked for"), "\(error.message)")
            #expect(error.message.contains(serverName ?? "<none>"), "\(error.message)")
        }
    }

    @Test("insecure mode accepts a certificate no trusted CA signed")
    func insecure() async throws {
        let pki = try TestPKI()
        let tls = try pki.serverTLS()
        try await withTestServer(configure: { $0.tls = tls }) { server in
            let connection = try await server.connect(.tls(ClientTLS(insecure: true)))
            #expect(try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "x")).text == "x")
            await connection.close()
        }
    }

    @Test("a cleartext client against a TLS port fails with UNAVAILABLE, saying the server speaks TLS")
    func cleartextClientAgainstTLS() async throws {
        let pki = try TestPKI()
        let tls = try pki.serverTLS()
        try await withTestServer(configure: { $0.tls = tls }) { server in
            let connection = try await server.connect()
            let error = try await #require(throws: RPCError.self) {
                try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "x"), options: CallOptions(timeout: .seconds(20)))
            }
            #expect(error.code == .unavailable)
            #expect(error.message.contains("TLS"), "\(error.message)")
            await connection.close()
        }
    }

    @Test("a TLS client against a cleartext port fails to connect, saying the server does not speak TLS")
    func tlsClientAgainstCleartext() async throws {
        let pki = try TestPKI()
        try await withTestServer { server in
            let error = try await #require(throws: RPCError.self) {
                try await server.connect(.tls(ClientTLS(caFile: pki.caFile)))
            }
            #expect(error.code == .unavailable)
            #expect(error.message.contains("the server does not speak TLS"), "\(error.message)")
            #expect(try await server.servesAnotherConnection())
        }
    }

    @Test("with a client CA the server accepts a client certificate that CA signed")
    func mutualTLS() async throws {
        let pki = try TestPKI()
        let tls = try pki.serverTLS(clientCA: pki.caFile)
        try await withTestServer(configure: { $0.tls = tls }) { server in
            let tls = ClientTLS(
                caFile: pki.caFile, clientCertificate: CertificateFiles(certificateChain: pki.clientCertificate, privateKey: pki.clientKey))
            let connection = try await server.connect(.tls(tls))
            #expect(try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "mtls")).text == "mtls")
            await connection.close()
        }
    }

    @Test("with a client CA the server refuses a client without a certificate or with one another CA signed")
    func mutualTLSRefused() async throws {
        let pki = try TestPKI()
        let other = try TestPKI(name: "Other CA")
        let tls = try pki.serverTLS(clientCA: pki.caFile)
        try await withTestServer(configure: { $0.tls = tls }) { server in
            let strangers: [(certificate: CertificateFiles?, expected: String)] = [
                (nil, "the server requires a client certificate"),
                (CertificateFiles(certificateChain: other.clientCertificate, privateKey: other.clientKey), "the server does not trust our certificate"),
            ]
            for stranger in strangers {
                let error = try await #require(throws: RPCError.self) {
                    // TLS 1.3: the client's handshake ends before the server checked its certificate,
                    // so the refusal may come with the first call.
                    try await server.callOnce(.tls(ClientTLS(caFile: pki.caFile, clientCertificate: stranger.certificate)))
                }
                #expect(error.code == .unavailable)
                #expect(error.message.contains(stranger.expected), "\(error.message)")
            }
        }
    }

    @Test("a peer that connects and never finishes its handshake is disconnected after the handshake timeout")
    func handshakeTimeout() async throws {
        let tls = try TestPKI().serverTLS()
        try await withTestServer(configure: {
            $0.tls = tls
            $0.tlsHandshakeTimeout = .milliseconds(200)
        }) { server in
            let silent = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: server.port).get()
            try await silent.closeFuture.get()
            #expect(!silent.isActive)
        }
    }

    @Test("a client that negotiates no ALPN protocol, or another one, is disconnected", arguments: [[], ["spdy/3.1"]])
    func noH2(protocols: [String]) async throws {
        let pki = try TestPKI()
        let tls = try pki.serverTLS()
        try await withTestServer(configure: { $0.tls = tls }) { server in
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .none
            configuration.applicationProtocols = protocols
            let context = try NIOSSLContext(configuration: configuration)
            let handshake = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: String?.self)
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandlers(
                            NIOSSLClientHandler(context: context, serverHostname: nil), HandshakeRecorder(handshake))
                    }
                }
                .connect(host: "127.0.0.1", port: server.port).get()
            #expect(try await handshake.futureResult.get() == nil, "the server chose no protocol")
            try await channel.closeFuture.get()
            #expect(!channel.isActive)
        }
    }

    @Test("a TLS server that does not choose h2 is refused at connect, saying so")
    func serverWithoutH2() async throws {
        let pki = try TestPKI()
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(pki.serverCertificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: pki.serverKey, format: .pem)))
        configuration.applicationProtocols = ["http/1.1"]
        let context = try NIOSSLContext(configuration: configuration)
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(listener.localAddress?.port)
        let error = try await #require(throws: RPCError.self) {
            try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: port, configuration: .tls(ClientTLS(caFile: pki.caFile)))
        }
        #expect(error.code == .unavailable)
        #expect(error.message.contains("the server does not speak HTTP/2 over TLS"), "\(error.message)")
        try await listener.close()
    }

    @Test("the connection limit counts TLS connections")
    func connectionLimit() async throws {
        let pki = try TestPKI()
        let tls = try pki.serverTLS()
        try await withTestServer(configure: {
            $0.tls = tls
            $0.maxConnections = 1
        }) { server in
            let first = try await server.connect(.tls(ClientTLS(caFile: pki.caFile)))
            #expect(try await RPCClient(transport: first).unary(Echo.get, EchoRequest(text: "1")).text == "1")
            // Refused past the limit, after the handshake: its call says why.
            let second = try await server.connect(.tls(ClientTLS(caFile: pki.caFile)))
            let error = try await #require(throws: RPCError.self) {
                try await RPCClient(transport: second).unary(Echo.get, EchoRequest(text: "2"))
            }
            #expect(error.code == .resourceExhausted)
            #expect(error.message.contains("too many connections"), "\(error.message)")
            await second.close()
            await first.close()
        }
    }

    @Test("unusable files are refused, naming the file and the problem")
    func badFiles() throws {
        let pki = try TestPKI()
        let other = try TestPKI(name: "Other CA")
        let missing = pki.directory.appendingPathComponent("missing.pem").path
        let notPEM = try pki.write("hello", to: "not.pem")
        let cases: [(files: CertificateFiles, path: String, problem: String)] = [
            (CertificateFiles(certificateChain: missing, privateKey: pki.serverKey), missing, "cannot read it: No such file or directory"),
            (CertificateFiles(certificateChain: notPEM, privateKey: pki.serverKey), notPEM, "it holds no readable PEM certificate"),
            (CertificateFiles(certificateChain: pki.serverCertificate, privateKey: notPEM), notPEM, "it is not an unencrypted PEM private key"),
            (CertificateFiles(certificateChain: pki.serverCertificate, privateKey: other.serverKey), other.serverKey,
             "it is not the private key of the certificate in '\(pki.serverCertificate)'"),
        ]
        for (files, path, problem) in cases {
            let error = try #require(throws: TLSFileError.self) { try ServerTLS(certificate: files) }
            #expect(error.path == path)
            #expect(error.problem.hasPrefix(problem), "\(error)")
        }
    }
}

extension TestPKI {
    /// TLS with this PKI's server certificate; with `clientCA`, client certificates are required.
    func serverTLS(clientCA: String? = nil) throws -> ServerTLS {
        try ServerTLS(certificate: CertificateFiles(certificateChain: serverCertificate, privateKey: serverKey), clientCAFile: clientCA)
    }
}

extension HTTP2ClientConfiguration {
    /// The defaults with `tls`.
    static func tls(_ tls: ClientTLS) -> HTTP2ClientConfiguration {
        var configuration = HTTP2ClientConfiguration.defaults
        configuration.tls = tls
        return configuration
    }
}

extension TestServer {
    /// Connects with `configuration`, makes one call, and closes the connection.
    func callOnce(_ configuration: HTTP2ClientConfiguration) async throws {
        let connection = try await connect(configuration)
        do {
            _ = try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "x"), options: CallOptions(timeout: .seconds(20)))
        } catch {
            await connection.close()
            throw error
        }
        await connection.close()
    }
}

/// Succeeds its promise with the protocol a TLS handshake negotiated, or fails it when the
/// connection ends first.
private final class HandshakeRecorder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let handshake: EventLoopPromise<String?>

    init(_ handshake: EventLoopPromise<String?>) {
        self.handshake = handshake
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted(let negotiated) = event { handshake.succeed(negotiated) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        handshake.fail(ChannelError.eof)
        context.fireChannelInactive()
    }
}
