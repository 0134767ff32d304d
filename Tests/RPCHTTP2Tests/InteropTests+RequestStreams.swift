import ChildProcess
import Foundation
import RPCCore
import RPCHTTP2
import TestSupport
import Testing

/// What `stream_client.py` prints.
private struct StreamClientReport: Decodable {
    struct Failure: Decodable {
        var code: String
        var message: String?
        var received: Int?
    }

    /// An HTTP/2 response as raw h2 saw it: envelopes as `[flag, message]` pairs.
    struct H2Response: Decodable {
        var status: String?
        var body: [Envelope]
        var trailers: [String: String]
        var reset: Bool
    }

    struct HTTP1Response: Decodable {
        var status: Int
        var body: [Envelope]
    }

    /// One envelope: its flag, and its message (JSON), or its text (a gRPC-Web trailer frame).
    struct Envelope: Decodable {
        var flag: Int
        var message: EchoResponse?
        var end: [String: JSONValue]?
        var text: String?

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            flag = try container.decode(Int.self)
            switch flag {
            case 0: message = try container.decode(EchoResponse.self)
            case 2: end = try container.decode([String: JSONValue].self)
            default: text = try container.decode(String.self)
            }
        }
    }

    struct Window: Decodable {
        var sentBeforeStall: Int?
        var response: H2Response
    }

    struct HTTP1Chat: Decodable {
        var status: Int
        var connection: String?
        var error: [String: JSONValue]
    }

    struct HTTP1Window: Decodable {
        var stalledAfter: Int?
        var total: Int
    }

    struct ConnectrpcChat: Decodable {
        var code: String?
        var message: String?
    }

    var grpcioCollect: EchoResponse
    var grpcioCollectError: Failure
    var grpcioChat: [EchoResponse]
    var grpcioChatError: Failure
    var h2ConnectCollect: H2Response
    var h2HalfCloseEmpty: H2Response
    var h2GrpcWebCollect: H2Response
    var h2Window: Window
    var http1ConnectCollect: HTTP1Response
    var http1GrpcWebCollect: HTTP1Response
    var http1Chat: HTTP1Chat
    var http1Window: HTTP1Window
    var connectrpcCollect: EchoResponse
    var connectrpcChat: ConnectrpcChat
}

/// Client and bidirectional streaming from foreign clients: in the interop suite, whose Python
/// processes run one at a time.
extension InteropTests {
    @Test("grpcio, raw h2, http.client and connectrpc stream requests to our server as our own client does over gRPC")
    func foreignClientsStreamRequests() async throws {
        try await withTestServer { server in
            let connection = try await server.connect()
            let requests = (0..<1000).map { EchoRequest(text: $0 % 100 == 0 ? "k" : "") }
            let overGRPC = try await RPCClient(transport: connection).clientStreaming(Echo.collect, requests.streamed)
            #expect(overGRPC == EchoResponse(text: "kkkkkkkkkk", index: 1000))
            await connection.close()

            let output = try await PythonProcess.output(ofScript: "stream_client.py", arguments: ["--port", "\(server.port)"])
            let report = try JSONDecoder().decode(StreamClientReport.self, from: Data(output))

            #expect(report.grpcioCollect == overGRPC)
            #expect(report.grpcioCollectError.code == "NOT_FOUND")
            #expect(report.grpcioCollectError.message == "no b")
            #expect(report.grpcioChat == (0..<100).map { (index: Int) in EchoResponse(text: "ping \(index)", index: index) })
            #expect(report.grpcioChatError.code == "FAILED_PRECONDITION")
            #expect(report.grpcioChatError.received == 2)

            #expect(report.h2ConnectCollect.status == "200")
            #expect(report.h2ConnectCollect.body.first?.message == overGRPC)
            #expect(report.h2ConnectCollect.body.last?.flag == 2)
            #expect(report.h2ConnectCollect.body.last?.end == [:], "the end-of-stream envelope holds {}")
            #expect(report.h2HalfCloseEmpty.body.first?.message == EchoResponse(text: "", index: 0))
            #expect(report.h2HalfCloseEmpty.trailers["grpc-status"] == "0")
            #expect(report.h2GrpcWebCollect.body.first?.message == overGRPC)
            #expect(report.h2GrpcWebCollect.body.last?.text?.contains("grpc-status: 0\r\n") == true)

            #expect(await server.probe.next { $0 == .cancelled("h2 reset") } != nil, "the reset cancelled the handler")

            let stall = try #require(report.h2Window.sentBeforeStall, "the window closed while the handler slept")
            #expect(stall <= 1024 * 1024 + 64 * 1024, "at most the stream's 1 MiB window went unread (\(stall) bytes)")
            #expect(report.h2Window.response.body.first?.message?.index == 256, "every message arrived once the handler read on")

            #expect(report.http1ConnectCollect.status == 200)
            #expect(report.http1ConnectCollect.body.first?.message == overGRPC)
            #expect(report.http1ConnectCollect.body.last?.end == [:])
            #expect(report.http1GrpcWebCollect.body.first?.message == overGRPC)
            #expect(report.http1GrpcWebCollect.body.last?.text?.contains("grpc-status: 0\r\n") == true)

            #expect(report.http1Chat.status == 505)
            #expect(report.http1Chat.connection == "close")
            #expect(report.http1Chat.error["code"] == .string("unimplemented"))

            let http1Stall = try #require(report.http1Window.stalledAfter, "the client's sends blocked while the handler slept")
            #expect(http1Stall < report.http1Window.total / 2, "the server stopped reading (\(http1Stall) bytes sent)")

            #expect(report.connectrpcCollect == overGRPC)
            #expect(report.connectrpcChat.code == "unimplemented", "\(report.connectrpcChat)")
            #expect(try await server.servesAnotherConnection())
        }
    }
}
