import CatalogAPI
import CatalogStore
import Foundation

/// Reads the token file of contract §5:
/// `{"tokens": [{"name": "ci", "role": "admin", "sha256": "<hex SHA-256 of the token>"}]}`.
///
/// Names are 1 to 64 characters of letters, digits, `.`, `_` and `-` (they appear in logs),
/// unique; roles are `reader`, `writer` or `admin`; each `sha256` is 64 hex digits, unique.
/// A file with no token is refused: to run open, give no file.
///
/// ```swift
/// let tokens = try TokenFile.load(path: "tokens.json")
/// ```
public enum TokenFile {
    /// The roles a token may have.
    static let roles: [MethodRole] = [.reader, .writer, .admin]

    /// Reads and checks the file at `path`.
    public static func load(path: String) throws(TokenFileError) -> TokenSet {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw TokenFileError(path: path, problem: "cannot read it: \(Self.reason(error))")
        }
        return try parse(data, path: path)
    }

    /// Checks the contents of a token file; `path` names it in errors.
    public static func parse(_ data: Data, path: String) throws(TokenFileError) -> TokenSet {
        let contents: Contents
        do {
            contents = try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            throw TokenFileError(path: path, problem: Self.describe(error))
        }
        guard !contents.tokens.isEmpty else {
            throw TokenFileError(path: path, problem: "it lists no tokens (to run open, give no token file)")
        }
        var tokens: [TokenSet.Token] = []
        var indexByName: [String: Int] = [:]
        var indexByDigest: [[UInt8]: Int] = [:]
        for (index, entry) in contents.tokens.enumerated() {
            let token = try entry.token(at: index, path: path)
            if let other = indexByName.updateValue(index, forKey: token.name) {
                throw TokenFileError(path: path, problem: "tokens[\(index)]: the name '\(token.name)' is already used by tokens[\(other)]")
            }
            if let other = indexByDigest.updateValue(index, forKey: token.digest) {
                throw TokenFileError(
                    path: path, problem: "tokens[\(index)] ('\(token.name)'): the same sha256 as tokens[\(other)] ('\(tokens[other].name)')")
            }
            tokens.append(token)
        }
        return TokenSet(tokens)
    }

    private struct Contents: Decodable {
        var tokens: [Entry]
    }

    private struct Entry: Decodable {
        var name: String
        var role: String
        var sha256: String

        func token(at index: Int, path: String) throws(TokenFileError) -> TokenSet.Token {
            func problem(_ text: String) -> TokenFileError {
                TokenFileError(path: path, problem: "tokens[\(index)] ('\(name)'): \(text)")
            }
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
            guard (1...64).contains(name.count), name.allSatisfy(allowed.contains) else {
                throw TokenFileError(
                    path: path,
                    problem: "tokens[\(index)]: the name must be 1 to 64 letters, digits, '.', '_' or '-', got \(name.debugDescription)")
            }
            guard let role = TokenFile.roles.first(where: { $0.name == self.role }) else {
                throw problem("unknown role '\(self.role)' (reader, writer or admin)")
            }
            let hexDigits = Array(sha256.utf8)
            guard hexDigits.count == 64 else {
                throw problem("sha256 must be 64 hex digits (the SHA-256 of the token), got \(sha256.count) characters")
            }
            var digest: [UInt8] = []
            digest.reserveCapacity(32)
            for pair in stride(from: 0, to: 64, by: 2) {
                guard let high = Self.hexValue(hexDigits[pair]), let low = Self.hexValue(hexDigits[pair + 1]) else {
                    throw problem("sha256 must be 64 hex digits (the SHA-256 of the token), and holds a character that is not one")
                }
                digest.append(high << 4 | low)
            }
            return TokenSet.Token(name: name, role: role, digest: digest)
        }

        private static func hexValue(_ character: UInt8) -> UInt8? {
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
            default: nil
            }
        }
    }

    /// A decoding failure in the file's terms, e.g. `tokens[1].role is missing`.
    private static func describe(_ error: any Error) -> String {
        func at(_ path: [any CodingKey]) -> String {
            let text = path.reduce(into: "") { text, key in
                if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
            return text.isEmpty ? "the top level" : text
        }
        func kind(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: "a string"
            case is [Any].Type: "an array"
            case is [String: Any].Type: "an object"
            default: "\(type)"
            }
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "\(at(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(let type, let context):
            return "\(at(context.codingPath)) must be \(kind(type))"
        case DecodingError.valueNotFound(let type, let context):
            return "\(at(context.codingPath)) must be \(kind(type)), not null"
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON"
        case DecodingError.dataCorrupted(let context):
            return "\(at(context.codingPath)): \(context.debugDescription)"
        default:
            return "it cannot be read as a token file"
        }
    }

    /// Why a file could not be read, e.g. `No such file or directory`.
    private static func reason(_ error: any Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        return error.localizedDescription
    }
}

/// A token file that cannot be used; the description names the file and the problem.
public struct TokenFileError: Error, Hashable, CustomStringConvertible {
    /// The file's path as given.
    public let path: String
    /// What is wrong, e.g. `tokens[0] ('ci'): unknown role 'root' (reader, writer or admin)`.
    public let problem: String

    public var description: String { "token file '\(path)': \(problem)" }
}
