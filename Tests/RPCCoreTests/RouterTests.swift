import RPCCore
import Testing

@Suite("Router")
struct RouterTests {
    struct Items: RPCService {
        func register(into router: inout Router) {
            router.register(TestService.getItem, .unary { request, _ in TestService.Item(id: request.id, name: "item") })
            router.register(TestService.listItems, .serverStreaming { _, _, _ in })
        }
    }

    @Test("lists registered methods sorted by path")
    func methods() {
        var router = Router()
        #expect(router.methods.isEmpty)
        router.register(TestService.listItems, .serverStreaming { _, _, _ in })
        router.register(TestService.getItem, .unary { request, _ in TestService.Item(id: request.id, name: "item") })
        router.register(TestService.ping, .unary { _, _ in Empty() })
        #expect(router.methods.map(\.path) == ["/a.v1.Health/Ping", "/test.v1.Items/Get", "/test.v1.Items/List"])
        #expect(router.methods.map(\.kind) == [.unary, .unary, .serverStreaming])
        #expect(router.methods == [TestService.ping.descriptor, TestService.getItem.descriptor, TestService.listItems.descriptor])
    }

    @Test("registers every method of a service")
    func service() {
        var router = Router()
        router.register(Items())
        #expect(router.methods == [TestService.getItem.descriptor, TestService.listItems.descriptor])
    }

    @Test("finds a route by its path")
    func routeForPath() throws {
        var router = Router()
        router.register(Items())
        let get = try #require(router.route(for: "/test.v1.Items/Get"))
        #expect(get.descriptor == TestService.getItem.descriptor)
        #expect(get.descriptor.kind == .unary)
        let list = try #require(router.route(for: "/test.v1.Items/List"))
        #expect(list.descriptor.kind == .serverStreaming)
    }

    @Test("finds no route for an unknown path", arguments: [
        "", "/", "/test.v1.Items", "/test.v1.Items/Nope", "test.v1.Items/Get", "/test.v1.items/get",
        "/test.v1.Items/Get/", "/other.v1.Items/Get",
    ])
    func unknownPath(path: String) {
        var router = Router()
        router.register(Items())
        #expect(router.route(for: path) == nil)
    }

    @Test("describes methods by their wire path")
    func descriptor() {
        let descriptor = TestService.getItem.descriptor
        #expect(descriptor.path == "/test.v1.Items/Get")
        #expect(descriptor.description == "/test.v1.Items/Get")
        #expect(descriptor.service == "test.v1.Items")
        #expect(descriptor.method == "Get")
        #expect(StreamingKind.unary.description == "unary")
        #expect(StreamingKind.serverStreaming.description == "server streaming")
        #expect(StreamingKind.clientStreaming.description == "client streaming")
        #expect(StreamingKind.bidirectional.description == "bidirectional streaming")
    }

    /// Lets `Items/Get` through as `reader`; refuses everything else.
    struct GetOnly: CallAuthorizer {
        func authorize(_ head: RequestHead, for method: MethodDescriptor) -> CallAuthorization {
            guard method == TestService.getItem.descriptor, head.metadata.first("authorization") == "Bearer r" else {
                return .refuse(RPCError(.permissionDenied, "not \(method.path)"), caller: "reader")
            }
            return .allow(caller: "reader")
        }
    }

    static func head(_ path: String, authorization: String? = nil) -> RequestHead {
        var metadata = Metadata()
        if let authorization { metadata.add("authorization", authorization) }
        return RequestHead(path: path, contentType: .grpc, metadata: metadata, deadline: nil, peer: "test")
    }

    @Test("without an authorizer every call is let through, anonymous")
    func noAuthorizer() throws {
        var router = Router()
        router.register(Items())
        let route = try #require(router.route(for: "/test.v1.Items/List"))
        #expect(router.authorize(Self.head("/test.v1.Items/List"), for: route) == .allow(caller: nil))
    }

    @Test("the authorizer decides from the head and the route's method, naming the caller")
    func authorizer() throws {
        var router = Router()
        router.register(Items())
        router.authorizer = GetOnly()
        let get = try #require(router.route(for: "/test.v1.Items/Get"))
        let list = try #require(router.route(for: "/test.v1.Items/List"))
        #expect(router.authorize(Self.head(get.descriptor.path, authorization: "Bearer r"), for: get) == .allow(caller: "reader"))
        let refusedHead = router.authorize(Self.head(get.descriptor.path), for: get)
        #expect(refusedHead.refusal?.code == .permissionDenied)
        #expect(refusedHead.caller == "reader")
        let refusedMethod = router.authorize(Self.head(list.descriptor.path, authorization: "Bearer r"), for: list)
        #expect(refusedMethod.refusal?.message == "not /test.v1.Items/List")
    }
}
