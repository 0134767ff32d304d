/// A TLS certificate, key or CA file that cannot be used; the description names the file and
/// the problem, e.g. `TLS file 'server.key': cannot read it: No such file or directory`.
public struct TLSFileError: Error, Hashable, CustomStringConvertible {
    /// The file's path as given.
    public let path: String
    /// What is wrong with it.
    public let problem: String

    package init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "TLS file '\(path)': \(problem)" }
}
