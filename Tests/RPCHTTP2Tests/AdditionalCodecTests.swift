import ChildProcess
import Foundation
import RPCCore
import RPCHTTP2
import RPCInProcess
import RPCURLSession
import Testing

/// A codec of a test's own, as a third party would write one: Foundation's binary property
/// lists, named `plist`.
struct PropertyListCodec: MessageCodec {
    var name: String { "plist" }

    func encode<Message: Encodable>(_ message: Message) throws(RPCError) -> [UInt8] {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        do {
            return Array(try encoder.encode(message))
        } catch {
            throw RPCError(.internalError, "cannot encode \(Message.self) as a property list: \(error)")
        }
    }

    func decode<Message: Decodable>(_ type: Message.Type, from bytes: [UInt8]) throws(RPCError) -> Message {
        do {
            return try PropertyListDecoder().decode(type, from: Data(bytes))
        } catch {
            throw RPCError(.invalidArgument, "not a property list of \(Message.self): \(error)")
        }
    }
}

/// A codec registered on the router (`Router.additionalCodecs`) is served in every protocol;
/// `HTTP2ClientConfiguration.use(_:)` and `URLSessionTransport.Codec.custom(_:)` make clients speak it.
@Suite("Additional codecs: a codec of one's own beside JSON and CBOR")
struct AdditionalCodecTests {
    /// A unary call echoing `text`, a stream of three, and an error with its code and message.
    static func callEveryShape(_ client: RPCClient, text: String) async throws {
        #expect(try await client.unary(Echo.get, EchoRequest(text: text)) == EchoResponse(text: text))
        var indices: [Int?] = []
        for try await response in try await client.serverStreaming(Echo.count, EchoRequest(text: "s", count: 3)) {
            indices.append(response.index)
        }
        #expect(indices == [0, 1, 2])
        let failure = await #expect(throws: RPCError.self) {
            try await client.unary(Echo.get, EchoRequest(text: "x", status: 5, message: "no item 42"))
        }
        #expect(failure?.code == .notFound && failure?.message == "no item 42")
    }

    @Test("our client calls in the codec over HTTP/2, unary and streaming; JSON still works beside it")
    func grpcOverHTTP2() async throws {
        try await withTestServer(codecs: [PropertyListCodec()]) { server in
            var configuration = HTTP2ClientConfiguration.defaults
            configuration.use(PropertyListCodec())
            let connection = try await server.connect(configuration)
            #expect(connection.contentType == "application/grpc+plist")
            #expect(connection.messageCodec.name == "plist")
            try await Self.callEveryShape(RPCClient(transport: connection), text: "héllo")
            await connection.close()
            #expect(try await server.servesAnotherConnection())
        }
    }

    @Test("a server without the codec refuses its calls, naming the content type")
    func unregisteredCodec() async throws {
        try await withTestServer { server in
            var configuration = HTTP2ClientConfiguration.defaults
            configuration.use(PropertyListCodec())
            let connection = try await server.connect(configuration)
            let error = await #expect(throws: RPCError.self) {
                try await RPCClient(transport: connection).unary(Echo.get, EchoRequest(text: "x"))
            }
            #expect(error?.message.contains("application/grpc+plist") == true)
            await connection.close()
        }
    }

    struct PythonReport: Decodable {
        struct Unary: Decodable { let status: Int; let contentType: String?; let isBinaryPlist: Bool; let body: EchoResponse? }
        struct Stream: Decodable { let status: Int; let contentType: String?; let messages: [EchoResponse]; let end: [String: String]? }
        struct Unknown: Decodable { let status: Int; let acceptPost: String }
        let unary: Unary
        let stream: Stream
        let unknown: Unknown
    }

    @Test("Python's http.client and plistlib call in Connect's forms of the codec over HTTP/1.1")
    func connectFromPython() async throws {
        try await withTestServer(codecs: [PropertyListCodec()]) { server in
            let output = try await PythonProcess.output(ofScript: "plist_client.py", arguments: ["--port", "\(server.port)"])
            let report = try JSONDecoder().decode(PythonReport.self, from: Data(output))
            #expect(report.unary.status == 200)
            #expect(report.unary.contentType == "application/plist")
            #expect(report.unary.isBinaryPlist)
            #expect(report.unary.body == EchoResponse(text: "héllo"))

            #expect(report.stream.status == 200)
            #expect(report.stream.contentType == "application/connect+plist")
            #expect(report.stream.messages.map(\.index) == [0, 1, 2])
            #expect(report.stream.end == [:])

            #expect(report.unknown.status == 415)
            let accepted = report.unknown.acceptPost.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(accepted.contains("application/grpc+plist") && accepted.contains("application/plist"))
            #expect(accepted.contains("application/grpc+cbor"))
        }
    }

    @Test("URLSessionTransport calls in Connect's forms of the codec, unary and streaming")
    func urlSession() async throws {
        try await withTestServer(codecs: [PropertyListCodec()]) { server in
            let transport = URLSessionTransport(
                baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)")), codec: .custom(PropertyListCodec()))
            #expect(transport.contentType == "application/grpc+plist" && transport.codec.description == "plist")
            try await Self.callEveryShape(RPCClient(transport: transport), text: "über")
        }
    }

    @Test("an in-process transport speaks the codec too")
    func inProcess() async throws {
        var router = Router()
        router.register(EchoService(probe: EchoProbe()))
        router.additionalCodecs = [PropertyListCodec()]
        let transport = InProcessTransport(router: router, codec: .grpc(PropertyListCodec()))
        #expect(transport.contentType == "application/grpc+plist")
        let client = RPCClient(transport: transport)
        #expect(try await client.unary(Echo.get, EchoRequest(text: "in")) == EchoResponse(text: "in"))
    }

    @Test("a codec's content types in every protocol, and the names it may not take")
    func contentTypes() {
        #expect(ContentType.every(of: PropertyListCodec()).map(\.headerValue) == [
            "application/grpc+plist", "application/grpc-web+plist", "application/grpc-web-text+plist",
            "application/plist", "application/connect+plist",
        ])
        #expect(ContentType.grpc(PropertyListCodec()) == ContentType.every(of: PropertyListCodec())[0])
        #expect(ContentType.grpc(PropertyListCodec()) != .grpcJSON)
        for name in ["plist", "msgpack", "x-avro.1"] { #expect(ContentType.isValidCodecName(name), "\(name)") }
        for name in ["json", "cbor", "grpc", "grpc-web", "Plist", "", "a b", "a/b"] {
            #expect(!ContentType.isValidCodecName(name), "\(name)")
        }
    }
}
