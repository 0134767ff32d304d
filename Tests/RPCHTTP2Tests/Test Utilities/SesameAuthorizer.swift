import RPCCore
import Synchronization

/// Lets a call through with `authorization: Bearer sesame` (caller `tester`): no token is
/// UNAUTHENTICATED, any other token PERMISSION_DENIED naming the method (caller `stranger`).
/// Records what it was asked, for tests to check that it saw the call's method and metadata.
final class SesameAuthorizer: CallAuthorizer {
    static let token = "sesame"
    static let caller = "tester"

    private let asked = Mutex<[(path: String, method: MethodDescriptor)]>([])

    /// The `:path` and method of every call it was asked about, in order.
    var questions: [(path: String, method: MethodDescriptor)] { asked.withLock { $0 } }

    func authorize(_ head: RequestHead, for method: MethodDescriptor) -> CallAuthorization {
        asked.withLock { $0.append((head.path, method)) }
        switch head.metadata.first("authorization") {
        case "Bearer \(Self.token)":
            return .allow(caller: Self.caller)
        case nil:
            return .refuse(RPCError(.unauthenticated, "no token", detail: ErrorDetail(reason: "unauthenticated")))
        default:
            return .refuse(
                RPCError(
                    .permissionDenied, "\(method.path) is not for this token",
                    detail: ErrorDetail(reason: "permissionDenied", details: ["method": .string(method.path)])),
                caller: "stranger")
        }
    }
}
