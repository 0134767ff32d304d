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

/// Asks about one service; absent or `""` means the server as a whole.
public struct HealthCheckRequest: Codable, Sendable, Hashable {
    public var service: String?

    public init(service: String? = nil) { self.service = service }
}

extension HealthCheckRequest: JSONReadable {
    package init?(json reader: inout JSONReader) {
        var service: String?
        let read = reader.readObject { reader, key in
            guard key == "service", service == nil, let value = reader.string() else { return false }
            service = value
            return true
        }
        guard read else { return nil }
        self.init(service: service)
    }
}

/// The serving status of a service.
public struct HealthCheckResponse: Codable, Sendable, Hashable {
    public var status: ServingStatus

    public init(status: ServingStatus) { self.status = status }
}

/// `SERVING` or `NOT_SERVING`.
public struct ServingStatus: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let serving = ServingStatus(rawValue: "SERVING")
    public static let notServing = ServingStatus(rawValue: "NOT_SERVING")

    public var description: String { rawValue }
}
