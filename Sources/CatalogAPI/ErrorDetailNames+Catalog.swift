import RPCCore

extension ErrorDetailNames {
    /// The catalog's: the `catalog-error-bin` trailer, and `catalog.v1.ErrorInfo` among a
    /// Connect error's details (contract §1 and §1.1).
    public static let catalog = ErrorDetailNames(trailer: "catalog-error-bin", connectType: "catalog.v1.ErrorInfo")
}
