import RPCCore

extension RPCError {
    /// The contract's machine-readable reason, e.g. `duplicateName`, `revisionMismatch`,
    /// `categoryNotEmpty`; `nil` when the server sent no `catalog-error-bin` trailer.
    ///
    /// ```swift
    /// do {
    ///     _ = try await catalog.categories.create(name: "Books")
    /// } catch let error as RPCError where error.reason == "duplicateName" {
    ///     print("taken by category \(error.details["id"]?.int64Value ?? 0)")
    /// }
    /// ```
    public var reason: String? { detail?.reason }

    /// The request field at fault (e.g. `color` for an invalid colour), when there is one.
    public var field: String? { detail?.field }

    /// Extra facts about the error, such as the `id` of a missing entity (`details["id"]`)
    /// or the `itemCount` of a category that is not empty; empty when there are none.
    public var details: [String: JSONValue] { detail?.details ?? [:] }
}
