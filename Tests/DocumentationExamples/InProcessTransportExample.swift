import CatalogAPI
import RPCCore
import RPCInProcess

// The example in the `///` comment of RPCInProcess's InProcessTransport.

func inProcessTransportExample() async throws {
    var router = Router()
    router.register(Health.check, .unary { _, _ in HealthCheckResponse(status: .serving) })
    let client = RPCClient(transport: InProcessTransport(router: router))
    let answer = try await client.unary(Health.check, HealthCheckRequest())
    _ = answer
}
