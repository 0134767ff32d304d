import CatalogKit

/// The command line: `client-fanout --codec json|cbor [--transport nghttp2|urlsession]
/// [--host 127.0.0.1] [--port 50051] [--subscribers 1000] [--connections 10] [--changes 200]
/// [--filter bench] [--timeout-s 120] [--server-pid PID]`.
struct Options {
    /// What carries the Watch streams: the nghttp2 transport (gRPC over HTTP/2, many streams
    /// on a connection) or URLSessionTransport (Connect streaming over HTTP/1.1 through
    /// FoundationNetworking's libcurl, one connection a stream). The Selects always go over nghttp2.
    enum Transport: String {
        case nghttp2, urlsession
    }

    var codec = CatalogClient.Codec.json
    var transport = Transport.nghttp2
    var host = "127.0.0.1"
    var port = 50051
    /// Watch streams, spread evenly over `connections` clients (with URLSession, one session
    /// each, whose streams take a connection each).
    var subscribers = 1000
    var connections = 10
    /// Sequential Selects, each waiting for the previous answer.
    var changes = 200
    var filter = "bench"
    /// The longest wait for the subscribers to sync, and then to converge.
    var timeoutSeconds = 120
    /// The server's process, whose CPU use over the Selects is reported when given.
    var serverPID: Int32?

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            switch flag {
            case "--codec":
                guard let codec = CatalogClient.Codec(rawValue: value) else { throw UsageError(description: "--codec: json or cbor, not \(value)") }
                self.codec = codec
            case "--transport":
                guard let transport = Transport(rawValue: value) else {
                    throw UsageError(description: "--transport: nghttp2 or urlsession, not \(value)")
                }
                self.transport = transport
            case "--host": host = value
            case "--port": port = try Self.parse(value, flag)
            case "--subscribers": subscribers = try Self.parse(value, flag)
            case "--connections": connections = try Self.parse(value, flag)
            case "--changes": changes = try Self.parse(value, flag)
            case "--filter": filter = value
            case "--timeout-s": timeoutSeconds = try Self.parse(value, flag)
            case "--server-pid": serverPID = try Self.parse(value, flag)
            default: throw UsageError(description: "unknown option \(flag)")
            }
        }
        guard subscribers > 0, connections > 0, changes > 0 else {
            throw UsageError(description: "--subscribers, --connections and --changes must be positive")
        }
    }

    private static func parse<T: LosslessStringConvertible>(_ value: String, _ flag: String) throws(UsageError) -> T {
        guard let parsed = T(value) else { throw UsageError(description: "\(flag): not a number: \(value)") }
        return parsed
    }
}
