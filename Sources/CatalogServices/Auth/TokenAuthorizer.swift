import CatalogAPI
import CatalogStore
import RPCCore
import Synchronization

/// Checks the bearer token of every call against the least role of the method it calls
/// (contract §2): no token needed for `none` (Health, Reflection); a missing, malformed or
/// unknown token is UNAUTHENTICATED; a token whose role is too low is PERMISSION_DENIED.
/// Both carry `details.requiredRole` and never quote the token. A method the contract does
/// not list needs `admin`.
///
/// ```swift
/// var router = Router.catalog(store: store, health: health, filters: filters)
/// router.authorizer = TokenAuthorizer(tokens: try TokenFile.load(path: "tokens.json"))
/// ```
public final class TokenAuthorizer: CallAuthorizer {
    private let tokens: Mutex<TokenSet>
    private let roles: [MethodDescriptor: MethodRole]

    /// Accepts `tokens`, with each method's role from `CatalogContract`.
    public init(tokens: TokenSet) {
        self.tokens = Mutex(tokens)
        self.roles = Dictionary(uniqueKeysWithValues: CatalogContract.methods.map { ($0.descriptor, $0.role) })
    }

    /// Accepts `tokens` from now on, in place of the previous set. Calls under way keep going;
    /// `FilterHub.endUnauthorizedWatches()` then ends the open Watches that `tokens` no
    /// longer allow.
    public func replaceTokens(with tokens: TokenSet) {
        self.tokens.withLock { $0 = tokens }
    }

    /// Lets the call through as the token's name, or refuses it: UNAUTHENTICATED, or
    /// PERMISSION_DENIED naming the token (for the access log).
    public func authorize(_ head: RequestHead, for method: MethodDescriptor) -> CallAuthorization {
        let required = roles[method] ?? .admin
        guard required > .none else { return .allow(caller: nil) }
        let presented = head.metadata["authorization"]
        guard let header = presented.first else {
            return .refuse(CatalogError.unauthenticated(
                "\(method.path) needs a bearer token (authorization: Bearer <token>)", requiredRole: required
            ).rpcError)
        }
        guard presented.count == 1, let token = header.stringValue.flatMap(Self.bearerToken) else {
            return .refuse(CatalogError.unauthenticated(
                "the authorization header must be one 'Bearer <token>'", requiredRole: required
            ).rpcError)
        }
        guard let match = tokens.withLock({ $0 }).match(token) else {
            return .refuse(
                CatalogError.unauthenticated("the bearer token is not known to this server", requiredRole: required).rpcError)
        }
        guard match.role >= required else {
            return .refuse(
                CatalogError.permissionDenied(method, requiredRole: required, role: match.role).rpcError, caller: match.name)
        }
        return .allow(caller: match.name)
    }

    /// The token of `Bearer <token>` (scheme in any case, RFC 9110 §11.1), or `nil` when the
    /// value is not that shape.
    static func bearerToken(in value: String) -> String? {
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].contains("\t") else { return nil }
        return String(parts[1])
    }
}
