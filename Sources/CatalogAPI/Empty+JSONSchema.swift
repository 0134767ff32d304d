import RPCCore

extension Empty: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue { JSONSchema.object(properties: [:]) }
}
