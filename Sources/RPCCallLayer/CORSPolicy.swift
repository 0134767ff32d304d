import RPCCore

/// Which browser origins may call the server (contract §1.1, CORS): the fields a preflight is
/// answered with, and those every response to a page of an allowed origin carries.
package struct CORSPolicy {
    let origins: Set<String>
    /// The response headers a page may read: the status, its message and the error detail.
    let exposedHeaders: String

    init(origins: Set<String>, errorDetailNames: ErrorDetailNames) {
        self.origins = origins
        exposedHeaders = "grpc-status, grpc-message, " + errorDetailNames.trailer
    }

    /// Whether CORS is on at all.
    var isEnabled: Bool { !origins.isEmpty }

    /// The request headers Connect and gRPC-Web clients send.
    static let allowedHeaders =
        "content-type, connect-protocol-version, connect-timeout-ms, connect-accept-encoding, connect-content-encoding, "
        + "x-grpc-web, x-user-agent, grpc-timeout, authorization"

    /// The fields of a response to a request from `origin`: the origin echoed when allowed;
    /// `vary: origin` whenever CORS is on, so caches keep answers apart.
    func responseFields(origin: String?) -> [(name: String, value: String)] {
        guard isEnabled else { return [] }
        guard let origin, origins.contains(origin) else { return [("vary", "origin")] }
        return [("access-control-allow-origin", origin), ("vary", "origin"), ("access-control-expose-headers", exposedHeaders)]
    }

    /// The fields of the answer to a preflight (`OPTIONS`) from `origin`.
    func preflightFields(origin: String?) -> [(name: String, value: String)] {
        guard isEnabled else { return [] }
        guard let origin, origins.contains(origin) else { return [("vary", "origin")] }
        return [
            ("access-control-allow-origin", origin), ("vary", "origin"), ("access-control-allow-methods", "POST, GET"),
            ("access-control-allow-headers", Self.allowedHeaders), ("access-control-max-age", "7200"),
        ]
    }
}
