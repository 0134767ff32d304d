import CatalogAPI
import CatalogStore
import RPCCore

/// Serves `catalog.v1.Reflection`: `Describe {}` answers the contract document that
/// `Schema/catalog.v1.json` holds, encoded once per codec and answered inline. No token needed.
public struct ReflectionService: RPCService {
    private let document: ContractDocument

    /// - Parameter document: what `Describe` answers; the catalog contract by default.
    public init(document: ContractDocument = CatalogContract.document) {
        self.document = document
    }

    public func register(into router: inout Router) {
        // Encoded once per codec: anyone may call Describe, and the document is large.
        let encoded = EncodedMessageCache<ObjectIdentifier, ContractDocument>(capacity: 4)
        router.register(Reflection.describe, .unary(.inline, encoded: { [document] _, context in
            let codec = context.contentType.codec
            return try encoded.encoded(document, for: ObjectIdentifier(type(of: codec)), codec: codec)
        }))
    }
}
