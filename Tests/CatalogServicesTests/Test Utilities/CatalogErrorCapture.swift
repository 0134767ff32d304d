import CatalogServices
import CatalogStore
import RPCCore
import Testing

/// The `CatalogError` that `body` throws, or `nil` when it succeeds (any other error is an issue).
func catalogError<Result>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Result) -> CatalogError? {
    do {
        _ = try body()
        return nil
    } catch let error as CatalogError {
        return error
    } catch {
        Issue.record(error, "expected a CatalogError", sourceLocation: sourceLocation)
        return nil
    }
}

/// The `CatalogError` that `body` throws, or `nil` when it succeeds (any other error is an issue).
func catalogError<Result>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Result) async -> CatalogError? {
    do {
        _ = try await body()
        return nil
    } catch let error as CatalogError {
        return error
    } catch {
        Issue.record(error, "expected a CatalogError", sourceLocation: sourceLocation)
        return nil
    }
}

extension CatalogError {
    /// The status code the client sees.
    var code: StatusCode { rpcError.code }
    /// The request field the error names, if any.
    var field: String? { rpcError.detail?.field }
}
