import CatalogAPI
import RPCCore

/// Serves `catalog.v1.Reflection`: `Describe {}` answers the contract document that
/// `Schema/catalog.v1.json` holds. No token needed.
public struct ReflectionService: RPCService {
    private let document: ContractDocument

    /// - Parameter document: what `Describe` answers; the catalog contract by default.
    public init(document: ContractDocument = CatalogContract.document) {
        self.document = document
    }

    public func register(into router: inout Router) {
        router.register(Reflection.describe) { [document] _, _ in document }
    }
}
