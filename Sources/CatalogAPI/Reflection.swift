import RPCCore

/// `catalog.v1.Reflection`: the machine-readable contract, as `Schema/catalog.v1.json` holds it.
public enum Reflection {
    public static let serviceName = "catalog.v1.Reflection"

    /// `Describe {}` → the contract document. No token needed.
    public static let describe = UnaryMethod<Empty, ContractDocument>(service: serviceName, method: "Describe")
}

/// The contract document: every service and method with its streaming kind, least role, the
/// content types it accepts and the JSON Schema of its request and response.
public struct ContractDocument: Codable, Sendable, Hashable {
    public struct Service: Codable, Sendable, Hashable {
        /// e.g. `catalog.v1.Categories`.
        public var name: String
        public var methods: [Method]

        public init(name: String, methods: [Method]) {
            self.name = name
            self.methods = methods
        }
    }

    public struct Method: Codable, Sendable, Hashable {
        /// e.g. `Create`.
        public var name: String
        /// e.g. `/catalog.v1.Categories/Create`.
        public var path: String
        public var clientStreaming: Bool
        public var serverStreaming: Bool
        /// `none`, `reader`, `writer` or `admin`.
        public var role: String
        /// The `content-type` values the method accepts, each selecting its codec; the
        /// response echoes the request's.
        public var contentTypes: [String]
        /// The JSON Schema of the request message.
        public var request: JSONValue
        /// The JSON Schema of the response message (of each one, when streaming).
        public var response: JSONValue

        public init(
            name: String, path: String, clientStreaming: Bool, serverStreaming: Bool, role: String,
            contentTypes: [String], request: JSONValue, response: JSONValue
        ) {
            self.name = name
            self.path = path
            self.clientStreaming = clientStreaming
            self.serverStreaming = serverStreaming
            self.role = role
            self.contentTypes = contentTypes
            self.request = request
            self.response = response
        }
    }

    /// Always `catalog.v1`.
    public var package: String
    public var services: [Service]

    public init(package: String, services: [Service]) {
        self.package = package
        self.services = services
    }
}

extension ContractDocument: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        let anySchema: JSONValue = .object(["type": "object"])
        let method = JSONSchema.object(
            properties: [
                "name": JSONSchema.string,
                "path": JSONSchema.string(pattern: "^/[^/]+/[^/]+$"),
                "clientStreaming": JSONSchema.boolean,
                "serverStreaming": JSONSchema.boolean,
                "role": JSONSchema.enumeration([MethodRole.none, .reader, .writer, .admin].map(\.name)),
                "contentTypes": JSONSchema.array(of: JSONSchema.enumeration(ContentType.all.map(\.headerValue))),
                "request": anySchema,
                "response": anySchema,
            ],
            required: ["name", "path", "clientStreaming", "serverStreaming", "role", "contentTypes", "request", "response"]
        )
        let service = JSONSchema.object(
            properties: ["name": JSONSchema.string, "methods": JSONSchema.array(of: method)],
            required: ["name", "methods"]
        )
        return JSONSchema.object(
            properties: ["package": JSONSchema.constant(CatalogContract.package), "services": JSONSchema.array(of: service)],
            required: ["package", "services"]
        )
    }
}
