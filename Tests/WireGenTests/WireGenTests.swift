import Foundation
import Testing
import TestSupport
import WireGen

@Suite("wiregen: messages written from their descriptions")
struct WireGenTests {
    @Test("the committed Sources/CatalogAPI/Generated files are what the .wire files generate")
    func generatedFilesAreCurrent() throws {
        let outputs = try WireGenerator.generate(packageRoot: try PackageRoot.url())
        #expect(outputs.count == 5)
        for output in outputs {
            let committed = try? String(contentsOf: output.url, encoding: .utf8)
            #expect(committed == output.source, "\(output.url.lastPathComponent) is out of date: run `swift run wiregen`")
        }
    }

    /// The source generated from one file, `spec`.
    static func generate(_ spec: String) throws -> String {
        var parser = WireParser()
        try parser.parse(spec, name: "Test")
        return SwiftGenerator(spec: try parser.finish()).generate()[0].source
    }

    static func failure(_ spec: String) -> WireParser.Failure? {
        do {
            _ = try generate(spec)
            return nil
        } catch let failure as WireParser.Failure {
            return failure
        } catch {
            return nil
        }
    }

    @Test("mistakes in a description are refused, naming the file, the line or the field, and the fault")
    func mistakes() {
        let cases: [(spec: String, message: String)] = [
            ("message A {\n    id: Int65\n}", "no type named Int65"),
            ("message A {\n    id: Int64 pattern \"x\"\n}", "`pattern` is for strings"),
            ("message A {\n    name: String minimum 1\n}", "`minimum` and `maximum` are for numbers"),
            ("enum E {\n    a\n}\nmessage A {\n    e: E known\n}", "`known` is for open enums"),
            ("message A {\n    id: Int64\n    id: Int64\n}", "field id is declared twice"),
            ("message A {\n    id: Int64\n", "message A is not closed"),
            ("message A {\n    id: Int64 sometimes\n}", "`sometimes` needs a value"),
            ("message A {\n    id: Int64 often 3\n}", "unknown modifier `often`"),
            ("message A {\n    name: String pattern nothing\n}", "no pattern named nothing"),
            ("message A {\n    u: FieldUpdate<String>?\n}", "a FieldUpdate is never optional"),
            ("message A {\n}", "message A has no fields"),
            ("message A {\n    id: Int64\n}\nmessage A {\n    id: Int64\n}", "A is declared twice"),
            ("struct A {\n}", "expected `message`, `enum`, `open enum`, `pattern` or `extern`"),
            ("message A {\n    title: String pattern \"unclosed\n}", "a string is not closed"),
        ]
        for (spec, message) in cases {
            let failure = Self.failure(spec)
            #expect(failure?.message.contains(message) == true, "\(spec): \(failure.map(String.init(describing:)) ?? "accepted")")
            #expect(failure?.file == "Test")
        }
        #expect(Self.failure("message A {\n    id: Int64 often 3\n}")?.line == 2)
    }

    @Test("CBOR keys are written and matched in the bytewise order of their encodings: shorter first")
    func cborKeyOrder() throws {
        let source = try Self.generate("message A {\n    bb: Int64\n    a: Int64\n    ab: Int64?\n    c: [String]\n}")
        let written = source.components(separatedBy: "writer.writeKey(\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(written == ["a", "c", "ab", "bb"])
        #expect(source.contains("var count = 3\n        if ab != nil { count += 1 }"))
    }

    @Test("an open enum keeps unknown values; a known-only field and a field update get their own decoder")
    func openEnumsAndUpdates() throws {
        let source = try Self.generate(
            "open enum E {\n    a, b\n}\nmessage A {\n    e: E known\n    f: E\n    u: FieldUpdate<String>\n}")
        #expect(source.contains("case unknown(String)"))
        #expect(source.contains("e = try container.decode(KnownValue<E>.self, forKey: .e).value"))
        #expect(source.contains("reader.readEnum(E.self) { E(rawValue: $0) }"))
        #expect(source.contains("reader.readEnum(E.self) { E.wireValue($0) }"))
        #expect(source.contains("u = try FieldUpdate(from: container, forKey: .u)"))
        #expect(source.contains("try u.encode(to: &container, forKey: .u)"))
    }
}
