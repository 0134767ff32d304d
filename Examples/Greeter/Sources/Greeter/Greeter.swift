import RPCCore

/// The request of `Greeter/Greet`.
public struct GreetRequest: Codable, Sendable, Hashable {
    public var name: String

    public init(name: String) { self.name = name }
}

/// The answer of `Greeter/Greet`.
public struct GreetResponse: Codable, Sendable, Hashable {
    public var greeting: String

    public init(greeting: String) { self.greeting = greeting }
}

/// The service: its method, the names of its error details, and a router that serves it.
public enum Greeter {
    public static let greet = UnaryMethod<GreetRequest, GreetResponse>(service: "acme.greeter.v1.Greeter", method: "Greet")

    public static let errorDetailNames = ErrorDetailNames(trailer: "acme-error-bin", connectType: "acme.greeter.v1.ErrorInfo")

    /// Answers a greeting; an empty name is INVALID_ARGUMENT, with the field at fault.
    public static func router() -> Router {
        var router = Router()
        router.register(greet, .unary { request, _ in
            guard !request.name.isEmpty else {
                throw RPCError(.invalidArgument, "a name is required", detail: ErrorDetail(reason: "emptyName", field: "name"))
            }
            return GreetResponse(greeting: "Hello, \(request.name)!")
        })
        return router
    }
}
