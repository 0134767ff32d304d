import RPCCore

/// `grpc.health.v1.Health`: whether the server, or one of its services, is serving.
public enum Health {
    public static let serviceName = "grpc.health.v1.Health"

    /// `Check {service?}` → `{status}`; an unknown service name is NOT_FOUND.
    public static let check = UnaryMethod<HealthCheckRequest, HealthCheckResponse>(service: serviceName, method: "Check")

    /// `Watch {service?}` → the status now, then each change.
    public static let watch = ServerStreamingMethod<HealthCheckRequest, HealthCheckResponse>(
        service: serviceName,
        method: "Watch"
    )
}

/// `SERVING` or `NOT_SERVING`.
public struct ServingStatus: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let serving = ServingStatus(rawValue: "SERVING")
    public static let notServing = ServingStatus(rawValue: "NOT_SERVING")

    public var description: String { rawValue }
}

extension ServingStatus: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        JSONSchema.enumeration([ServingStatus.serving.rawValue, ServingStatus.notServing.rawValue])
    }
}
