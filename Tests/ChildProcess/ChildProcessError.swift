#if canImport(Glibc)
import Glibc
#endif

/// A child process could not be spawned: which step failed, for which executable, with which errno.
public struct ChildProcessError: Error, CustomStringConvertible, Sendable {
    /// The executable's path (or the file the failed step was about).
    public var path: String
    /// The step that failed, such as `posix_spawn`.
    public var operation: String
    /// The `errno` value, such as `ENOENT` when the executable does not exist.
    public var errno: Int32
    /// More about the failure, if any.
    public var detail: String?

    public init(path: String, operation: String, errno: Int32, detail: String? = nil) {
        self.path = path
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    public var description: String {
        "\(operation) failed for \(path): \(String(cString: strerror(errno))) (errno \(errno))"
            + (detail.map { ": \($0)" } ?? "")
    }
}
