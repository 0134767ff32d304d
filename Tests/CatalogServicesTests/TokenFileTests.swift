import CatalogAPI
import CatalogServices
import CatalogStore
import CatalogServicesTestSupport
import Foundation
import TestSupport
import Testing

@Suite("Token file")
struct TokenFileTests {
    @Test("a valid file gives each token its name and role; hex digits in either case")
    func valid() throws {
        let upper = TestTokens.sha256Hex("admin-secret").uppercased()
        let json = """
            {"tokens": [
              {"name": "ci", "role": "reader", "sha256": "\(TestTokens.sha256Hex("reader-secret"))"},
              {"name": "ops.team_2-b", "role": "writer", "sha256": "\(TestTokens.sha256Hex("writer-secret"))", "comment": "ignored"},
              {"name": "root", "role": "admin", "sha256": "\(upper)"}
            ]}
            """
        let tokens = try TokenFile.parse(Data(json.utf8), path: "tokens.json")
        #expect(tokens.tokens.map(\.name) == ["ci", "ops.team_2-b", "root"])
        #expect(tokens.tokens.map(\.role) == [.reader, .writer, .admin])
        #expect(tokens.match("admin-secret")?.name == "root")
    }

    /// A file's contents and what the error must say after `token file '<path>': `.
    struct BadFile: Sendable, CustomTestStringConvertible {
        var json: String
        var problem: String
        var testDescription: String { problem }
    }

    static let reader = TestTokens.sha256Hex("reader-secret")
    static let writer = TestTokens.sha256Hex("writer-secret")

    static let badFiles: [BadFile] = [
        BadFile(json: "{", problem: "it is not valid JSON"),
        BadFile(json: "", problem: "it is not valid JSON"),
        BadFile(json: "[]", problem: "the top level must be an object"),
        BadFile(json: "{}", problem: "tokens is missing"),
        BadFile(json: #"{"tokens": 3}"#, problem: "tokens must be an array"),
        BadFile(json: #"{"tokens": null}"#, problem: "tokens must be an array, not null"),
        BadFile(json: #"{"tokens": []}"#, problem: "it lists no tokens (to run open, give no token file)"),
        BadFile(json: #"{"tokens": [{"name": "ci", "sha256": "\#(reader)"}]}"#, problem: "tokens[0].role is missing"),
        BadFile(json: #"{"tokens": [{"name": "ci", "role": 3, "sha256": "\#(reader)"}]}"#, problem: "tokens[0].role must be a string"),
        BadFile(
            json: #"{"tokens": [{"name": "ci", "role": "root", "sha256": "\#(reader)"}]}"#,
            problem: "tokens[0] ('ci'): unknown role 'root' (reader, writer or admin)"),
        BadFile(
            json: #"{"tokens": [{"name": "ci", "role": "none", "sha256": "\#(reader)"}]}"#,
            problem: "tokens[0] ('ci'): unknown role 'none' (reader, writer or admin)"),
        BadFile(
            json: #"{"tokens": [{"name": "ci", "role": "reader", "sha256": "\#(reader.dropLast())"}]}"#,
            problem: "tokens[0] ('ci'): sha256 must be 64 hex digits (the SHA-256 of the token), got 63 characters"),
        BadFile(
            json: #"{"tokens": [{"name": "ci", "role": "reader", "sha256": "reader-secret"}]}"#,
            problem: "tokens[0] ('ci'): sha256 must be 64 hex digits (the SHA-256 of the token), got 13 characters"),
        BadFile(
            json: #"{"tokens": [{"name": "ci", "role": "reader", "sha256": "\#(reader.dropLast())g"}]}"#,
            problem: "tokens[0] ('ci'): sha256 must be 64 hex digits (the SHA-256 of the token), and holds a character that is not one"),
        BadFile(
            json: #"{"tokens": [{"name": "", "role": "reader", "sha256": "\#(reader)"}]}"#,
            problem: #"tokens[0]: the name must be 1 to 64 letters, digits, '.', '_' or '-', got """#),
        BadFile(
            json: #"{"tokens": [{"name": "a b\n", "role": "reader", "sha256": "\#(reader)"}]}"#,
            problem: #"tokens[0]: the name must be 1 to 64 letters, digits, '.', '_' or '-', got "a b\n""#),
        BadFile(
            json: #"{"tokens": [{"name": "ci", "role": "reader", "sha256": "\#(reader)"}, {"name": "ci", "role": "admin", "sha256": "\#(writer)"}]}"#,
            problem: "tokens[1]: the name 'ci' is already used by tokens[0]"),
        BadFile(
            json: #"{"tokens": [{"name": "a", "role": "reader", "sha256": "\#(reader)"}, {"name": "b", "role": "admin", "sha256": "\#(reader.uppercased())"}]}"#,
            problem: "tokens[1] ('b'): the same sha256 as tokens[0] ('a')"),
    ]

    @Test("a bad file is refused, naming the file and what is wrong", arguments: badFiles)
    func bad(file: BadFile) {
        let error = #expect(throws: TokenFileError.self) {
            try TokenFile.parse(Data(file.json.utf8), path: "/etc/catalog/tokens.json")
        }
        #expect(error?.description == "token file '/etc/catalog/tokens.json': \(file.problem)")
    }

    @Test("a file that cannot be read is refused, naming it and the reason")
    func unreadable() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/tokens.json"
        let error = #expect(throws: TokenFileError.self) { try TokenFile.load(path: missing) }
        #expect(error?.description == "token file '\(missing)': cannot read it: No such file or directory")

        let directory = FileManager.default.temporaryDirectory.path
        let notAFile = #expect(throws: TokenFileError.self) { try TokenFile.load(path: directory) }
        #expect(notAFile?.description == "token file '\(directory)': cannot read it: Is a directory")
    }

    @Test("load reads the file at the path")
    func load() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString).json")
        try Data(TestTokens.fileJSON(TestTokens.oneOfEachRole).utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let tokens = try TokenFile.load(path: url.path)
        #expect(tokens == (try TestTokens.tokenSet(TestTokens.oneOfEachRole)))
    }

    @Test("match finds the token whose hash is listed, wherever it is, and nothing else",
          arguments: [("reader-secret", "alice"), ("writer-secret", "bob"), ("admin-secret", "carol")])
    func match(token: String, name: String) throws {
        let tokens = try TestTokens.tokenSet(TestTokens.oneOfEachRole)
        #expect(tokens.match(token)?.name == name)
        #expect(tokens.match(token + " ") == nil)
        #expect(tokens.match(String(token.dropLast()) + "x") == nil)
    }

    @Test("match finds nothing for an unknown or empty token")
    func noMatch() throws {
        let tokens = try TestTokens.tokenSet(TestTokens.oneOfEachRole)
        #expect(tokens.match("") == nil)
        #expect(tokens.match("guess") == nil)
        #expect(tokens.match(TestTokens.sha256Hex("reader-secret")) == nil, "the hash is not the token")
    }
}
