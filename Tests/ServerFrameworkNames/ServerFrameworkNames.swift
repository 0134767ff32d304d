// Types named as a server framework (Hummingbird, GRPCCore) or an app names its own, for the
// tests that import this module next to CatalogKit: each use of one of these names must resolve.

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

/// As an app's own model, or Objective-C's `Category` on Apple platforms.
public struct Category: Sendable {
    public var title: String
    public init(title: String) { self.title = title }
}

/// As an app's own model.
public struct Item: Sendable {
    public var title: String
    public init(title: String) { self.title = title }
}

/// As a schema library's type; CatalogKit keeps its descriptors and schema types to itself.
public struct JSONSchema: Sendable {
    public init() {}
}

/// As an app's own request type; CatalogKit does not re-export the requests it builds.
public struct ListItemsRequest: Sendable {
    public init() {}
}

/// As an app's own service type; CatalogKit does not re-export its method descriptors.
public struct CategoriesService: Sendable {
    public init() {}
}
