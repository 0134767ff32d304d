import CatalogAPI
import RPCCore

/// A failed catalog operation, with the status and machine-readable reason of the contract.
///
/// Every write that fails with one of these has changed nothing.
public struct CatalogError: Error, RPCErrorConvertible, Sendable, Hashable, CustomStringConvertible {
    public let rpcError: RPCError

    private init(_ code: StatusCode, _ message: String, reason: String, field: String? = nil, details: [String: JSONValue]? = nil) {
        rpcError = RPCError(code, message, detail: ErrorDetail(reason: reason, field: field, details: details))
    }

    private init(_ rpcError: RPCError) {
        self.rpcError = rpcError
    }

    /// The same error, with the failure underneath it (a database error, an I/O error) as its
    /// `rpcError.cause`: kept for logs and callers in the process, never sent to the client.
    public func causedBy(_ cause: any Error) -> CatalogError {
        var rpcError = rpcError
        rpcError.cause = cause
        return CatalogError(rpcError)
    }

    public var description: String { rpcError.description }

    /// The machine-readable reason, e.g. `duplicateName`.
    public var reason: String { rpcError.detail?.reason ?? "" }

    /// NOT_FOUND `notFound` with `details.id`.
    public static func notFound(_ kind: String, id: Int64) -> CatalogError {
        CatalogError(.notFound, "no \(kind) with id \(id)", reason: "notFound", details: ["id": .integer(Int64(id))])
    }

    /// The same error about the message at `index` of a request stream (ImportItems): its
    /// `details.index`, and the index in its message.
    public func atIndex(_ index: Int) -> CatalogError {
        var rpcError = rpcError
        var detail = rpcError.detail ?? ErrorDetail(reason: "invalidField")
        var details = detail.details ?? [:]
        details["index"] = .integer(Int64(index))
        detail.details = details
        rpcError.detail = detail
        rpcError.message = "message \(index): \(rpcError.message)"
        return CatalogError(rpcError)
    }

    /// A request message of a stream that did not decode (`error`, INVALID_ARGUMENT naming the
    /// field), with the message's `details.index`.
    public static func invalidMessage(_ error: RPCError, index: Int) -> CatalogError {
        var rpcError = error
        if rpcError.detail == nil { rpcError.detail = ErrorDetail(reason: "invalidMessage") }
        return CatalogError(rpcError).atIndex(index)
    }

    /// RESOURCE_EXHAUSTED `tooManyItems`: an import over its limit.
    public static func tooManyItems(limit: Int) -> CatalogError {
        CatalogError(
            .resourceExhausted, "an import holds at most \(limit) items", reason: "tooManyItems",
            details: ["limit": .integer(Int64(limit))])
    }

    /// INVALID_ARGUMENT `invalidField` naming the field.
    public static func invalidField(_ field: String, _ message: String) -> CatalogError {
        CatalogError(.invalidArgument, "\(field): \(message)", reason: "invalidField", field: field)
    }

    /// ALREADY_EXISTS `duplicateName` with the existing category's id.
    public static func duplicateName(existingID: Int64) -> CatalogError {
        CatalogError(
            .alreadyExists, "a category with this name already exists", reason: "duplicateName", field: "name",
            details: ["id": .integer(Int64(existingID))])
    }

    /// ABORTED `revisionMismatch`.
    public static func revisionMismatch(expected: Int64, actual: Int64) -> CatalogError {
        CatalogError(
            .aborted, "revision is \(actual), not \(expected)", reason: "revisionMismatch", field: "expectedRevision",
            details: ["revision": .integer(Int64(actual))])
    }

    /// FAILED_PRECONDITION `defaultCategory`: a default category cannot be deleted or merged away.
    public static func defaultCategory(id: Int64) -> CatalogError {
        CatalogError(
            .failedPrecondition, "category \(id) is a default category", reason: "defaultCategory",
            details: ["id": .integer(Int64(id))])
    }

    /// FAILED_PRECONDITION `lastCategory`.
    public static var lastCategory: CatalogError {
        CatalogError(.failedPrecondition, "the last category cannot be deleted", reason: "lastCategory")
    }

    /// FAILED_PRECONDITION `categoryNotEmpty` with `details.itemCount`.
    public static func categoryNotEmpty(itemCount: Int) -> CatalogError {
        CatalogError(
            .failedPrecondition, "the category holds \(itemCount) items", reason: "categoryNotEmpty", field: "items",
            details: ["itemCount": .integer(Int64(itemCount))])
    }

    /// INVALID_ARGUMENT `moveToRequired`.
    public static var moveToRequired: CatalogError {
        CatalogError(.invalidArgument, "items: move needs moveTo", reason: "moveToRequired", field: "moveTo")
    }

    /// FAILED_PRECONDITION `alreadyFirst`.
    public static var alreadyFirst: CatalogError {
        CatalogError(.failedPrecondition, "the category is already first", reason: "alreadyFirst", field: "direction")
    }

    /// FAILED_PRECONDITION `alreadyLast`.
    public static var alreadyLast: CatalogError {
        CatalogError(.failedPrecondition, "the category is already last", reason: "alreadyLast", field: "direction")
    }

    /// NOT_FOUND `unknownFilter` with the filter id in `details.id`.
    public static func unknownFilter(_ filterID: String) -> CatalogError {
        CatalogError(.notFound, "no filter '\(filterID)'", reason: "unknownFilter", field: "filterId", details: ["id": .string(filterID)])
    }

    /// NOT_FOUND `unknownOption` with the option id in `details.id`.
    public static func unknownOption(_ optionID: Int64) -> CatalogError {
        CatalogError(
            .notFound, "the filter has no option \(optionID)", reason: "unknownOption", field: "optionId",
            details: ["id": .integer(Int64(optionID))])
    }

    /// FAILED_PRECONDITION `builtinFilter`: the built-in `categories` filter cannot be deleted or unbound.
    public static func builtinFilter(_ filterID: String) -> CatalogError {
        CatalogError(
            .failedPrecondition, "'\(filterID)' is a built-in filter", reason: "builtinFilter", field: "filterId",
            details: ["id": .string(filterID)])
    }

    /// OUT_OF_RANGE `futureRevision`: a Watch asked to resume after a revision that does not exist yet.
    public static func futureRevision(_ requested: Int64, current: Int64) -> CatalogError {
        CatalogError(
            .outOfRange, "revision \(requested) is ahead of the current revision \(current)", reason: "futureRevision",
            field: "sinceRevision", details: ["revision": .integer(Int64(current))])
    }

    /// OUT_OF_RANGE `revisionCompacted`: the changes after `revision` are no longer retained.
    public static func revisionCompacted(_ revision: Int64, oldestRetained: Int64) -> CatalogError {
        CatalogError(
            .outOfRange, "the changes after revision \(revision) are no longer retained (oldest: \(oldestRetained))",
            reason: "revisionCompacted", field: "sinceRevision", details: ["oldestRevision": .integer(Int64(oldestRetained))])
    }

    /// RESOURCE_EXHAUSTED `tooManySubscribers`: a Watch past a subscriber limit, which
    /// `message` names, with `details.scope` (`connection`, `caller` or `server`) and
    /// `details.limit`.
    public static func tooManySubscribers(_ message: String, scope: String, limit: Int) -> CatalogError {
        CatalogError(
            .resourceExhausted, message, reason: "tooManySubscribers",
            details: ["scope": .string(scope), "limit": .integer(Int64(limit))])
    }

    /// UNAUTHENTICATED `unauthenticated` (missing, malformed or unknown bearer token) with
    /// the method's least role in `details.requiredRole`. The message never quotes the token.
    public static func unauthenticated(_ message: String, requiredRole: MethodRole) -> CatalogError {
        CatalogError(
            .unauthenticated, message, reason: "unauthenticated", details: ["requiredRole": .string(requiredRole.name)])
    }

    /// PERMISSION_DENIED `permissionDenied` with `details.requiredRole` and the token's `details.role`.
    public static func permissionDenied(_ method: MethodDescriptor, requiredRole: MethodRole, role: MethodRole) -> CatalogError {
        CatalogError(
            .permissionDenied, "\(method.path) needs the \(requiredRole) role; the token has \(role)",
            reason: "permissionDenied", details: ["requiredRole": .string(requiredRole.name), "role": .string(role.name)])
    }

    /// INTERNAL: the store failed (I/O, corruption); the message is safe to show.
    public static func storage(_ message: String) -> CatalogError {
        CatalogError(.internalError, "storage failure: \(message)", reason: "storage")
    }

    /// UNAVAILABLE `databaseMoved`: the database file was deleted, moved or replaced while the
    /// server had it open, so the write was not made (it would have gone to a file nobody
    /// opens again). Nothing the client can change: the server needs its file back and a restart.
    public static var databaseMoved: CatalogError {
        CatalogError(
            .unavailable, "the catalog's database file was deleted, moved or replaced while in use: nothing was written",
            reason: "databaseMoved")
    }

    /// UNAVAILABLE `databaseUnavailable`: the database server cannot be reached (down,
    /// restarting, or the connection to it broke), so the call was not answered. Retrying later,
    /// or on another replica, may succeed.
    public static var databaseUnavailable: CatalogError {
        CatalogError(.unavailable, "the catalog's database cannot be reached: try again", reason: "databaseUnavailable")
    }

    /// RESOURCE_EXHAUSTED `storageFull`: the file system holding the catalog is out of space,
    /// so the write was not made.
    public static var storageFull: CatalogError {
        CatalogError(
            .resourceExhausted, "the disk holding the catalog is full: nothing was written", reason: "storageFull")
    }
}
