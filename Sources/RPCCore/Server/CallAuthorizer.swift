/// Decides from a call's head alone whether the call may run. Transports ask it (through
/// `Router.authorize(_:for:)`) before they read the request or start a handler, and answer a
/// refusal trailers-only.
///
/// ```swift
/// struct SharedSecret: CallAuthorizer {
///     func authorize(_ head: RequestHead, for method: MethodDescriptor) -> CallAuthorization {
///         guard head.metadata.first("authorization") == "Bearer s3cret" else {
///             return .refuse(RPCError(.unauthenticated, "this server needs a bearer token"))
///         }
///         return .allow(caller: "the one client")
///     }
/// }
/// var router = Router()
/// router.authorizer = SharedSecret()
/// ```
public protocol CallAuthorizer: Sendable {
    /// Whether the call may run, and who is calling. Runs on the transport's I/O thread: it
    /// must be quick and never block.
    func authorize(_ head: RequestHead, for method: MethodDescriptor) -> CallAuthorization
}

/// What a `CallAuthorizer` decided about one call.
public struct CallAuthorization: Sendable, Hashable {
    /// The caller's name for logs, when known: also on a refusal, e.g. a known token whose
    /// role is too low. Never a credential.
    public var caller: String?
    /// The error the call ends with instead of running (typically UNAUTHENTICATED or
    /// PERMISSION_DENIED); `nil` lets it run.
    public var refusal: RPCError?

    /// The call runs; `caller` names who makes it (`nil`: anonymous).
    public static func allow(caller: String?) -> CallAuthorization {
        CallAuthorization(caller: caller, refusal: nil)
    }

    /// The call ends with `error` before its request is read; `caller` names who was refused, when known.
    public static func refuse(_ error: RPCError, caller: String? = nil) -> CallAuthorization {
        CallAuthorization(caller: caller, refusal: error)
    }
}
