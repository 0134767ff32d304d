/// Maps `:path` to typed handlers.
///
/// Every method is registered the same way: its descriptor, then a handler for its kind of
/// call, with how its calls run (`ExecutionPolicy`, see `MethodHandler`).
///
/// ```swift
/// var router = Router()
/// router.register(Health.check, .unary(.inline) { request, context in HealthCheckResponse(status: .serving) })
/// router.register(Items.create, .unary { request, context in try await store.create(request) })
/// ```
public struct Router: Sendable {
    private var routes: [String: Route] = [:]

    /// Decides which calls may run; `nil` (the default) lets every call through.
    public var authorizer: (any CallAuthorizer)?

    /// What runs around every handler, the first outermost (see ``ServerInterceptor``), after
    /// the authorizer let the call through. Default: none.
    public var interceptors: [any ServerInterceptor] = [] {
        didSet { routes = routes.mapValues { $0.intercepted(by: interceptors) } }
    }

    /// The paths of the methods that change nothing, which Connect's GET form may call (a GET
    /// of any other method is refused, 405).
    public var readOnlyPaths: Set<String> = []

    /// Codecs of one's own beyond JSON and CBOR, each accepted in every protocol under its
    /// ``MessageCodec/name`` (`application/grpc+name`, `application/name` for Connect, …; see
    /// ``ContentType/every(of:)``) and answered in kind. Default: none. A name must be a
    /// lowercase token that no built-in type already uses (not `json`, `cbor` or `grpc`).
    public var additionalCodecs: [any MessageCodec] = [] {
        didSet {
            for codec in additionalCodecs {
                precondition(ContentType.isValidCodecName(codec.name), "'\(codec.name)' cannot name a codec of one's own")
            }
            additionalContentTypes = Dictionary(
                additionalCodecs.flatMap(ContentType.every(of:)).map { ($0.headerValue, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The additional codecs' content types by header value, made once rather than per request.
    private var additionalContentTypes: [String: ContentType] = [:]

    /// A router with no method and no authorizer.
    public init() {}

    /// The content type `headerValue` names (parameters ignored), built in or of an additional codec.
    package func contentType(headerValue: String) -> ContentType? {
        if let builtIn = ContentType(headerValue: headerValue) { return builtIn }
        guard !additionalContentTypes.isEmpty else { return nil }
        return additionalContentTypes[ContentType.essence(of: headerValue)]
    }

    /// The Connect unary content type of a GET's `encoding`, built in or of an additional codec.
    package func contentType(connectEncoding encoding: String) -> ContentType? {
        ContentType(connectEncoding: encoding) ?? additionalContentTypes["application/\(encoding)"].flatMap {
            $0.framing == .connectUnary ? $0 : nil
        }
    }

    /// Every content type served, the additional codecs' included.
    package var acceptedContentTypes: [ContentType] {
        ContentType.everyProtocol + additionalCodecs.flatMap(ContentType.every(of:))
    }

    /// Every registered method, sorted by path.
    public var methods: [MethodDescriptor] { routes.values.map(\.descriptor).sorted { $0.path < $1.path } }

    /// Registers `handler` for `method`. A method is registered once.
    public mutating func register<Method: RPCMethod>(_ method: Method, _ handler: MethodHandler<Method>) {
        let descriptor = method.descriptor
        precondition(routes[descriptor.path] == nil, "\(descriptor.path) is registered twice")
        routes[descriptor.path] = Route(
            descriptor: descriptor, index: routes.count, policy: handler.policy, core: handler.core(descriptor),
            interceptors: interceptors)
    }

    /// Registers every method of a service.
    public mutating func register(_ service: some RPCService) {
        service.register(into: &self)
    }

    /// The route for a `:path`, if one is registered.
    package func route(for path: String) -> Route? { routes[path] }

    /// Whether the call `head` may run `route`, as the authorizer decides (without one: yes,
    /// anonymously). Transports call it before they read the request or run the route.
    package func authorize(_ head: RequestHead, for route: Route) -> CallAuthorization {
        authorizer?.authorize(head, for: route.descriptor) ?? .allow(caller: nil)
    }
}

/// A group of methods registered together.
public protocol RPCService: Sendable {
    /// Registers the service's handlers.
    func register(into router: inout Router)
}
