import CatalogAPI
import CatalogStore
import Crypto

/// The bearer tokens the server accepts, each known by a name, a role and the SHA-256 of the
/// token: the tokens themselves are never stored. Read one from a file with `TokenFile`.
public struct TokenSet: Sendable, Hashable {
    /// One accepted token.
    public struct Token: Sendable, Hashable {
        /// The name logs use for the caller, e.g. `ci`.
        public let name: String
        /// What the token may call (contract §2).
        public let role: MethodRole
        /// SHA-256 of the token's UTF-8 bytes: 32 bytes.
        let digest: [UInt8]
    }

    /// Every token, in file order.
    public let tokens: [Token]

    /// - Precondition: names and digests are unique and every digest has 32 bytes
    ///   (`TokenFile` checks all of it).
    init(_ tokens: [Token]) {
        precondition(tokens.allSatisfy { $0.digest.count == SHA256.byteCount })
        self.tokens = tokens
    }

    /// The tokens given in clear, hashed here and not kept: for a server embedded in a test or
    /// a tool, whose tokens are not in a file.
    ///
    /// - Precondition: names are unique, and so are tokens.
    public init(hashing tokens: [(name: String, role: MethodRole, token: String)]) {
        precondition(Set(tokens.map(\.name)).count == tokens.count && Set(tokens.map(\.token)).count == tokens.count, "duplicate token names or tokens")
        self.init(tokens.map { Token(name: $0.name, role: $0.role, digest: Array(SHA256.hash(data: Array($0.token.utf8)))) })
    }

    /// The token whose digest is the SHA-256 of `token`, if any. Every configured digest is
    /// compared in full, with no early exit at the first differing byte or the first match,
    /// so the time taken says nothing about how close a guess came.
    public func match(_ token: String) -> Token? {
        let presented = Array(SHA256.hash(data: Array(token.utf8)))
        var found: Token?
        for candidate in tokens {
            var difference: UInt8 = 0
            for index in 0..<SHA256.byteCount {
                difference |= candidate.digest[index] ^ presented[index]
            }
            if difference == 0 { found = candidate }
        }
        return found
    }
}
