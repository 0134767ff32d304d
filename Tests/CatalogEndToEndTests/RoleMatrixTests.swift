import CatalogAPI
import CatalogServices
import CatalogServicesTestSupport
import CatalogStore
import CatalogTestSupport
import RPCCore
import TestSupport
import Testing

/// Contract §2 over the wire: every method of the contract, called with no token, an unknown
/// token and a token of each role. A call its role allows is sent a valid request and must be
/// answered; a refused call is sent a request that does not even decode, and must still be
/// refused for its credential (the check comes first). Each method runs on a fresh store.
@Suite("Role matrix over the wire", .timeLimit(.minutes(3)))
struct RoleMatrixTests {
    /// Who is calling.
    enum Credential: CaseIterable {
        case noToken, unknownToken, reader, writer, admin

        var authorization: String? {
            switch self {
            case .noToken: nil
            case .unknownToken: "Bearer not-a-configured-secret"
            case .reader: "Bearer \(TestTokens.reader)"
            case .writer: "Bearer \(TestTokens.writer)"
            case .admin: "Bearer \(TestTokens.admin)"
            }
        }

        /// The token's role; `nil` without a known token.
        var role: MethodRole? {
            switch self {
            case .noToken, .unknownToken: nil
            case .reader: .reader
            case .writer: .writer
            case .admin: .admin
            }
        }
    }

    /// What each method's valid request refers to, created by an admin before the matrix runs.
    struct Fixtures {
        var itemID: Int
        var categoryID: Int
        let filterID = "matrix"
    }

    /// A valid request for every method of the contract, against a fresh store plus `fixtures`.
    /// Writes are dry runs or harmless when repeated, since a writer method runs for writer and admin.
    static func validRequest(_ path: String, _ fixtures: Fixtures) -> String? {
        let item = fixtures.itemID
        let category = fixtures.categoryID
        let filter = fixtures.filterID
        return [
            "/catalog.v1.Catalog/ListItems": #"{"pageSize": 5}"#,
            "/catalog.v1.Catalog/GetItem": #"{"id": \#(item)}"#,
            "/catalog.v1.Catalog/CreateItem": #"{"title": "Created by the matrix"}"#,
            "/catalog.v1.Catalog/UpdateItem": #"{"id": \#(item), "title": "Renamed by the matrix"}"#,
            "/catalog.v1.Catalog/DeleteItem": #"{"id": \#(item)}"#,
            "/catalog.v1.Catalog/ImportItems": #"{"title": "Imported by the matrix"}"#,
            "/catalog.v1.Categories/List": #"{}"#,
            "/catalog.v1.Categories/Get": #"{"id": \#(category)}"#,
            "/catalog.v1.Categories/Create": #"{"name": "Created by the matrix"}"#,
            "/catalog.v1.Categories/Update": #"{"id": \#(category), "name": "Renamed by the matrix"}"#,
            "/catalog.v1.Categories/Delete": #"{"id": \#(category), "dryRun": true}"#,
            "/catalog.v1.Categories/Move": #"{"id": \#(category), "direction": "up"}"#,
            "/catalog.v1.Categories/Merge": #"{"sourceIds": [\#(category)], "targetId": 1, "dryRun": true}"#,
            "/catalog.v1.Categories/AssignItems": #"{"itemIds": [\#(item)], "categoryId": \#(category), "dryRun": true}"#,
            "/catalog.v1.Categories/MoveItems": #"{"fromId": \#(category), "toId": 1}"#,
            "/catalog.v1.Categories/Stats": #"{}"#,
            "/catalog.v1.Categories/Palette": #"{}"#,
            "/catalog.v1.Categories/Export": #"{}"#,
            "/catalog.v1.Categories/Import": #"{"categories": [], "mode": "merge", "dryRun": true}"#,
            "/catalog.v1.Filters/Define": #"{"filterId": "defined-by-the-matrix", "title": "Matrix"}"#,
            "/catalog.v1.Filters/Get": #"{"filterId": "\#(filter)"}"#,
            "/catalog.v1.Filters/List": #"{}"#,
            "/catalog.v1.Filters/Select": #"{"filterId": "categories", "optionId": \#(category)}"#,
            "/catalog.v1.Filters/SetPresentation": #"{"filterId": "categories", "presentation": "collapsed"}"#,
            "/catalog.v1.Filters/TogglePresentation": #"{"filterId": "categories"}"#,
            "/catalog.v1.Filters/Delete": #"{"filterId": "\#(filter)"}"#,
            "/catalog.v1.Filters/Watch": #"{"filterId": "categories"}"#,
            "/catalog.v1.Filters/Session": #"{"filterId": "categories"}"#,
            "/catalog.v1.Reflection/Describe": #"{}"#,
            "/grpc.health.v1.Health/Check": #"{}"#,
            "/grpc.health.v1.Health/Watch": #"{}"#,
        ][path]
    }

    @Test("each credential gets what contract §2 gives its role", arguments: CatalogContract.methods.map(\.descriptor.path))
    func matrix(path: String) async throws {
        let method = try #require(CatalogContract.method(at: path))
        try await withCatalogServer(authorizer: TokenAuthorizer(tokens: try TestTokens.tokenSet())) { server in
            let fixtures = try await Self.makeFixtures(on: server)
            let request = try #require(Self.validRequest(path, fixtures), "the matrix has no valid request for \(path): add one")
            for credential in Credential.allCases {
                let allowed = credential.role.map { $0 >= method.role } ?? (method.role == .none)
                let outcome = await server.firstAnswer(
                    method.descriptor, body: allowed ? request : "{not json", authorization: credential.authorization)
                switch (allowed, outcome) {
                case (true, .success):
                    break
                case (true, .failure(let error)):
                    Issue.record("\(credential) on \(path): expected an answer, got \(error)")
                case (false, .success(let answer)):
                    Issue.record("\(credential) on \(path): expected a refusal, got \(answer)")
                case (false, .failure(let error)):
                    let expected: (StatusCode, String) =
                        credential.role == nil ? (.unauthenticated, "unauthenticated") : (.permissionDenied, "permissionDenied")
                    #expect(error.code == expected.0, "\(credential) on \(path): \(error)")
                    #expect(error.detail?.reason == expected.1, "\(credential) on \(path): \(error)")
                    #expect(error.detail?.details?["requiredRole"] == .string(method.role.name), "\(credential) on \(path)")
                    #expect(!error.message.contains("secret"), "\(error)")
                }
            }
        }
    }

    /// An item, a category and a filter, created by the admin.
    static func makeFixtures(on server: CatalogTestServer) async throws -> Fixtures {
        let admin = Credential.admin.authorization
        let item = try await server.firstAnswer(
            CatalogService.createItem.descriptor, body: #"{"title": "Matrix item"}"#, authorization: admin
        ).get()
        let category = try await server.firstAnswer(
            CategoriesService.create.descriptor, body: #"{"name": "Matrix"}"#, authorization: admin
        ).get()
        let fixtures = Fixtures(itemID: try #require(Self.id(of: item)), categoryID: try #require(Self.id(of: category)))
        _ = try await server.firstAnswer(
            FiltersService.define.descriptor, body: #"{"filterId": "\#(fixtures.filterID)", "title": "Matrix"}"#, authorization: admin
        ).get()
        return fixtures
    }

    static func id(of answer: JSONValue) -> Int? {
        guard case .object(let fields) = answer else { return nil }
        return fields["id"]?.intValue
    }
}
