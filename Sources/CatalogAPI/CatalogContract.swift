import Foundation
import RPCCore

/// The whole `catalog.v1` contract as data: every method the server serves, with its least
/// role and message schemas. `Schema/catalog.v1.json` is `CatalogContract.documentJSON()`
/// (regenerate it with `swift run catalogd --print-schema > Schema/catalog.v1.json`).
public enum CatalogContract {
    /// One method of the contract.
    public struct Method: Sendable {
        public let descriptor: MethodDescriptor
        /// The least role a token needs (contract §2).
        public let role: MethodRole
        public let requestSchema: JSONValue
        public let responseSchema: JSONValue
        /// The type a request message decodes to.
        public let requestType: any (Codable & Sendable).Type

        public init<Request: JSONSchemaDescribable, Response: JSONSchemaDescribable>(
            _ method: UnaryMethod<Request, Response>, role: MethodRole
        ) {
            self.init(method.descriptor, Request.self, Response.self, role: role)
        }

        public init<Request: JSONSchemaDescribable, Response: JSONSchemaDescribable>(
            _ method: ServerStreamingMethod<Request, Response>, role: MethodRole
        ) {
            self.init(method.descriptor, Request.self, Response.self, role: role)
        }

        public init<Request: JSONSchemaDescribable, Response: JSONSchemaDescribable>(
            _ method: ClientStreamingMethod<Request, Response>, role: MethodRole
        ) {
            self.init(method.descriptor, Request.self, Response.self, role: role)
        }

        public init<Request: JSONSchemaDescribable, Response: JSONSchemaDescribable>(
            _ method: BidirectionalStreamingMethod<Request, Response>, role: MethodRole
        ) {
            self.init(method.descriptor, Request.self, Response.self, role: role)
        }

        private init<Request: JSONSchemaDescribable & Codable & Sendable, Response: JSONSchemaDescribable>(
            _ descriptor: MethodDescriptor, _: Request.Type, _: Response.Type, role: MethodRole
        ) {
            self.descriptor = descriptor
            self.role = role
            self.requestSchema = Request.jsonSchema
            self.responseSchema = Response.jsonSchema
            self.requestType = Request.self
        }
    }

    /// The package every service belongs to in the document.
    public static let package = "catalog.v1"

    /// Every method, services in name order and each service's methods in contract order.
    public static let methods: [Method] = [
        Method(CatalogService.listItems, role: .reader),
        Method(CatalogService.getItem, role: .reader),
        Method(CatalogService.createItem, role: .admin),
        Method(CatalogService.updateItem, role: .admin),
        Method(CatalogService.deleteItem, role: .admin),
        Method(CatalogService.importItems, role: .admin),

        Method(CategoriesService.list, role: .reader),
        Method(CategoriesService.get, role: .reader),
        Method(CategoriesService.create, role: .admin),
        Method(CategoriesService.update, role: .admin),
        Method(CategoriesService.delete, role: .admin),
        Method(CategoriesService.move, role: .admin),
        Method(CategoriesService.merge, role: .admin),
        Method(CategoriesService.assignItems, role: .admin),
        Method(CategoriesService.moveItems, role: .admin),
        Method(CategoriesService.stats, role: .reader),
        Method(CategoriesService.palette, role: .reader),
        Method(CategoriesService.export, role: .reader),
        Method(CategoriesService.import, role: .admin),

        Method(FiltersService.define, role: .admin),
        Method(FiltersService.get, role: .reader),
        Method(FiltersService.list, role: .reader),
        Method(FiltersService.select, role: .writer),
        Method(FiltersService.setPresentation, role: .writer),
        Method(FiltersService.togglePresentation, role: .writer),
        Method(FiltersService.delete, role: .admin),
        Method(FiltersService.watch, role: .reader),
        Method(FiltersService.session, role: .reader),

        Method(Reflection.describe, role: .none),

        Method(Health.check, role: .none),
        Method(Health.watch, role: .none),
    ]

    /// The method at an HTTP/2 `:path`, if the contract has it.
    public static func method(at path: String) -> Method? {
        methods.first { $0.descriptor.path == path }
    }

    /// The document `Describe` answers and `Schema/catalog.v1.json` holds.
    public static let document: ContractDocument = {
        var services: [ContractDocument.Service] = []
        for method in methods {
            let entry = ContractDocument.Method(
                name: method.descriptor.method,
                path: method.descriptor.path,
                clientStreaming: method.descriptor.kind.clientStreaming,
                serverStreaming: method.descriptor.kind.serverStreaming,
                role: method.role.name,
                contentTypes: ContentType.all.map(\.headerValue),
                request: method.requestSchema,
                response: method.responseSchema
            )
            if services.last?.name == method.descriptor.service {
                services[services.count - 1].methods.append(entry)
            } else {
                services.append(ContractDocument.Service(name: method.descriptor.service, methods: [entry]))
            }
        }
        return ContractDocument(package: package, services: services)
    }()

    /// The document as pretty-printed JSON with sorted keys and a final line feed: the exact
    /// bytes of `Schema/catalog.v1.json`.
    public static func documentJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document) + Data("\n".utf8)
    }
}
