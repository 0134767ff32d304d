import CatalogKit

/// The exit status of `catalog`, as its `--help` documents them.
///
/// RPC errors follow grpcurl: 64 plus the gRPC status code, so NOT_FOUND (5) is 69 and
/// UNAVAILABLE (14), which includes an unreachable server, is 78.
package struct ExitStatus: Hashable, Sendable, CustomStringConvertible {
    /// The process exit status.
    package let code: Int32

    private init(_ code: Int32) { self.code = code }

    /// Success; also a declined confirmation, which changes nothing.
    package static let ok = ExitStatus(0)
    /// A failure inside the CLI itself. (A response it cannot read is INTERNAL, 77, as gRPC
    /// reports it.)
    package static let internalError = ExitStatus(1)
    /// Bad arguments, an unusable config file, or a confirmation that cannot be asked.
    package static let usage = ExitStatus(2)
    /// `filter watch --timeout` ran out before its `--until` condition held.
    package static let watchTimeout = ExitStatus(124)

    /// The status for a call that ended with `code`: 64 + the gRPC status code.
    package static func rpc(_ code: StatusCode) -> ExitStatus { ExitStatus(64 + Int32(code.rawValue)) }

    package var description: String { String(code) }
}
