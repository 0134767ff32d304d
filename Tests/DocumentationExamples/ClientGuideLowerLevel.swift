import CatalogAPI
import RPCCore
import RPCHTTP2

// docs/client.md, "Lower level": the layers below the client, without `import CatalogKit`.

func clientGuideLowerLevel() async throws {
    var configuration = HTTP2ClientConfiguration.defaults
    configuration.errorDetailNames = .catalog
    let connection = try await HTTP2ClientConnection.connect(host: "127.0.0.1", port: 50051, configuration: configuration)
    let client = RPCClient(transport: connection)
    let reply = try await client.unary(Health.check, HealthCheckRequest(), options: CallOptions(timeout: .seconds(1)))
    _ = reply
}
