// Types named as a server framework (Hummingbird, GRPCCore) names its own, for the tests that
// import this module next to CatalogClient: each use of one of these names must resolve.

/// As Hummingbird's `Router`.
public struct Router: Sendable {
    public var framework: String
    public init(framework: String) { self.framework = framework }
}

/// As GRPCCore's `Metadata`.
public struct Metadata: Sendable {
    public var pairs: [(String, String)]
    public init(_ pairs: [(String, String)] = []) { self.pairs = pairs }
}

/// As a server framework's request context.
public struct ServerContext: Sendable {
    public init() {}
}

/// As GRPCCore's `MethodDescriptor`.
public struct MethodDescriptor: Sendable {
    public var fullyQualifiedMethod: String
    public init(fullyQualifiedMethod: String) { self.fullyQualifiedMethod = fullyQualifiedMethod }
}

/// As a framework's empty message.
public struct Empty: Sendable {
    public init() {}
}
