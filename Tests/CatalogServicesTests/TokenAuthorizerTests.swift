import CatalogAPI
import CatalogServices
import CatalogStore
import CatalogServicesTestSupport
import RPCCore
import TestSupport
import Testing

/// `TokenAuthorizer` decisions for every method and credential, without sockets (the same
/// matrix runs over the wire in `RoleMatrixTests`).
@Suite("Token authorizer")
struct TokenAuthorizerTests {
    let authorizer: TokenAuthorizer

    init() throws {
        authorizer = TokenAuthorizer(tokens: try TestTokens.tokenSet(TestTokens.oneOfEachRole))
    }

    static func head(_ method: MethodDescriptor, authorization: [String] = []) -> RequestHead {
        var metadata = Metadata()
        for value in authorization { metadata.add("authorization", value) }
        return RequestHead(path: method.path, contentType: .grpc, metadata: metadata, deadline: nil, peer: "test")
    }

    @Test("each role calls what contract §2 gives it and gets PERMISSION_DENIED for the rest",
          arguments: CatalogContract.methods.map(\.descriptor.path))
    func roles(path: String) throws {
        let method = try #require(CatalogContract.method(at: path))
        for (name, role, token) in TestTokens.oneOfEachRole {
            let granted = try #require([MethodRole.reader, .writer, .admin].first { $0.name == role })
            let head = Self.head(method.descriptor, authorization: ["Bearer \(token)"])
            if granted >= method.role {
                let decision = authorizer.authorize(head, for: method.descriptor)
                #expect(decision == .allow(caller: method.role == .none ? nil : name), "\(name) on \(method.descriptor)")
            } else {
                let decision = authorizer.authorize(head, for: method.descriptor)
                #expect(decision.caller == name, "a refused known token is still named for the log")
                let error = decision.refusal
                #expect(error?.code == .permissionDenied, "\(name) on \(method.descriptor)")
                #expect(error?.detail?.reason == "permissionDenied")
                #expect(error?.detail?.details?["requiredRole"] == .string(method.role.name))
                #expect(error?.detail?.details?["role"] == .string(role))
                #expect(error?.message == "\(method.descriptor.path) needs the \(method.role) role; the token has \(role)")
            }
        }
    }

    @Test("Health and Reflection need no token and ignore a bad one",
          arguments: CatalogContract.methods.filter { $0.role == .none }.map(\.descriptor.path))
    func noTokenNeeded(path: String) throws {
        let method = try #require(CatalogContract.method(at: path))
        #expect(authorizer.authorize(Self.head(method.descriptor), for: method.descriptor) == .allow(caller: nil))
        #expect(authorizer.authorize(Self.head(method.descriptor, authorization: ["Basic x"]), for: method.descriptor) == .allow(caller: nil))
    }

    /// An `authorization` header list, and what the UNAUTHENTICATED message says.
    struct Unauthenticated: Sendable, CustomTestStringConvertible {
        var authorization: [String]
        var message: String
        var testDescription: String { "\(authorization)" }
    }

    static let unauthenticatedCases: [Unauthenticated] = [
        Unauthenticated(authorization: [], message: "/catalog.v1.Categories/List needs a bearer token (authorization: Bearer <token>)"),
        Unauthenticated(authorization: ["Bearer guess-secret"], message: "the bearer token is not known to this server"),
        Unauthenticated(authorization: ["Bearer " + TestTokens.sha256Hex("reader-secret")], message: "the bearer token is not known to this server"),
        Unauthenticated(authorization: ["reader-secret"], message: "the authorization header must be one 'Bearer <token>'"),
        Unauthenticated(authorization: ["Basic reader-secret"], message: "the authorization header must be one 'Bearer <token>'"),
        Unauthenticated(authorization: ["Bearer"], message: "the authorization header must be one 'Bearer <token>'"),
        Unauthenticated(authorization: ["Bearer reader-secret extra"], message: "the authorization header must be one 'Bearer <token>'"),
        Unauthenticated(authorization: ["Bearer reader-secret", "Bearer admin-secret"], message: "the authorization header must be one 'Bearer <token>'"),
    ]

    @Test("a missing, malformed or unknown token is UNAUTHENTICATED with the required role, never quoting the token",
          arguments: unauthenticatedCases)
    func unauthenticated(case given: Unauthenticated) {
        let method = CategoriesService.list.descriptor
        let decision = authorizer.authorize(Self.head(method, authorization: given.authorization), for: method)
        #expect(decision.caller == nil)
        let error = decision.refusal
        #expect(error?.code == .unauthenticated)
        #expect(error?.message == given.message)
        #expect(error?.detail?.reason == "unauthenticated")
        #expect(error?.detail?.details?["requiredRole"] == .string("reader"))
        #expect(!"\(String(describing: error))".contains("secret"))
    }

    @Test("the scheme is matched in any case, and spaces around the token are allowed",
          arguments: ["bearer writer-secret", "BEARER writer-secret", "Bearer  writer-secret"])
    func schemeCase(authorization: String) throws {
        let method = FiltersService.select.descriptor
        #expect(authorizer.authorize(Self.head(method, authorization: [authorization]), for: method) == .allow(caller: "bob"))
    }

    @Test("a method the contract does not list needs admin")
    func unlistedMethod() throws {
        let method = MethodDescriptor(service: "catalog.v1.Secret", method: "Peek", kind: .unary)
        #expect(authorizer.authorize(Self.head(method, authorization: ["Bearer admin-secret"]), for: method) == .allow(caller: "carol"))
        let refused = authorizer.authorize(Self.head(method, authorization: ["Bearer writer-secret"]), for: method)
        #expect(refused.refusal?.detail?.details?["requiredRole"] == .string("admin"))
    }

    @Test("after replaceTokens the old tokens are unknown and the new ones work")
    func replace() throws {
        let method = CategoriesService.create.descriptor
        authorizer.replaceTokens(with: try TestTokens.tokenSet([("dave", "admin", "new-secret")]))
        #expect(authorizer.authorize(Self.head(method, authorization: ["Bearer new-secret"]), for: method) == .allow(caller: "dave"))
        let refused = authorizer.authorize(Self.head(method, authorization: ["Bearer admin-secret"]), for: method)
        #expect(refused.refusal?.code == .unauthenticated)
    }
}
