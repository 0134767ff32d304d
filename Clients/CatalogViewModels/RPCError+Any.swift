import CatalogKit

extension RPCError {
    /// `error` as the `RPCError` the client's calls throw; anything else (which CatalogKit's
    /// calls never throw, but a fake might) as UNKNOWN with its description.
    static func from(_ error: any Error) -> RPCError {
        error as? RPCError ?? RPCError(.unknown, String(describing: error), cause: error)
    }
}
