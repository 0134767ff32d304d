import CatalogKit
import Foundation
import Logging

// docs/client.md, "Response metadata", "Interceptors" and "Connection state"; the `///` examples of
// `CatalogClient.withResponse(_:)`, `Configuration.interceptors` and `ClientInterceptor`.

func clientGuideResponseMetadata(catalog: CatalogClient) async throws {
    let response = try await catalog.withResponse { try await $0.items.get(id: 42) }
    print(response.message.title, response.initialMetadata.first("x-served-by") ?? "-")
}

extension Session {
    func refreshedToken() async -> String { "refreshed" }
}

struct RefreshOnUnauthenticated: ClientInterceptor {
    let session: Session

    func intercept<Output: Sendable>(
        _ call: ClientCallContext,
        next: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        do {
            return try await next(call)
        } catch where error.code == .unauthenticated {
            var call = call
            call.options.bearerToken = await session.refreshedToken()
            return try await next(call)
        }
    }
}

struct RequestID: ClientInterceptor {
    func intercept<Output: Sendable>(
        _ call: ClientCallContext,
        next: (ClientCallContext) async throws(RPCError) -> Output
    ) async throws(RPCError) -> Output {
        var call = call
        call.options.metadata.add("x-request-id", UUID().uuidString)
        return try await next(call)
    }
}

func clientGuideShippedInterceptors(logger: Logger) -> CatalogClient.Configuration {
    var configuration = CatalogClient.Configuration.defaults
    configuration.interceptors = [LoggingInterceptor(logger: logger), MetricsInterceptor()]
    return configuration
}

/// docs/client.md, "Connection state", and `CatalogClient.connectionStates`.
func clientGuideConnectionState(catalog: CatalogClient) async {
    for await state in catalog.connectionStates {
        showOfflineBanner(state != .ready)
    }
}

func showOfflineBanner(_ shown: Bool) {}
