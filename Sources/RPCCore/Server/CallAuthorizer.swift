/// Decides from a call's head alone whether the call may run. Transports ask it (through
/// `Router.authorize(_:for:)`) before they read the request or start a handler, and answer
/// its error trailers-only.
///
/// ```swift
/// struct SharedSecret: CallAuthorizer {
///     func authorize(_ head: RequestHead, for method: MethodDescriptor) throws(RPCError) -> String? {
///         guard head.metadata.first("authorization") == "Bearer s3cret" else {
///             throw RPCError(.unauthenticated, "this server needs a bearer token")
///         }
///         return "the one client"
///     }
/// }
/// var router = Router()
/// router.authorizer = SharedSecret()
/// ```
public protocol CallAuthorizer: Sendable {
    /// Lets the call through and returns the caller's name for logs (`nil`: anonymous), or
    /// throws the error the call ends with, typically UNAUTHENTICATED or PERMISSION_DENIED.
    /// Runs on the transport's I/O thread: it must be quick and never block.
    func authorize(_ head: RequestHead, for method: MethodDescriptor) throws(RPCError) -> String?
}
