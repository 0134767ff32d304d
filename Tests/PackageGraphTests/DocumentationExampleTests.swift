import Foundation
import Testing

/// Every ```swift block of the README, of `docs/`, of the client library's DocC catalog and of
/// the `///` comments of the client library and of its view models stands, line for line
/// (indentation aside), in the sources of the `DocumentationExamples` target, which the build
/// compiles: an example that no longer builds fails the build, one changed on one side only
/// fails here. A block's opening `import` lines need only be imports of the same file, since
/// the rest of the block is wrapped in a function there. A block that starts with
/// `// Package.swift` is a manifest fragment: it stands in `ClientPackage/Package.swift`
/// there, which must read as a manifest.
/// The shell, Python and JSON examples of the README and `docs/` must parse.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let examples = root.appendingPathComponent("Tests/DocumentationExamples")
    static let manifest = examples.appendingPathComponent("ClientPackage/Package.swift")

    @Test("every Swift example of the documentation is compiled in DocumentationExamples")
    func examplesCompiled() throws {
        let sources = try Self.files(under: Self.examples, withExtension: "swift")
            .filter { $0.lastPathComponent != "Package.swift" }
            .map { try ExampleSource(text: String(contentsOf: $0, encoding: .utf8)) }
        let manifest = try ExampleSource(text: String(contentsOf: Self.manifest, encoding: .utf8))
        let blocks = try Self.documentedBlocks()
        for folder in ["README.md", "docs/", "Clients/CatalogKit/CatalogKit.docc/"] {
            #expect(blocks.contains { $0.file.hasPrefix(folder) }, "no ```swift block found in \(folder): the scan looked in the wrong place")
        }
        #expect(blocks.contains { $0.file.hasSuffix(".swift") }, "no ```swift block found in a `///` comment: the scan looked in the wrong place")
        #expect(blocks.contains { $0.file.hasPrefix("Clients/CatalogViewModels/") }, "no ```swift block found in the view models' `///` comments")
        for block in blocks {
            if block.isManifestFragment {
                let found = manifest.contains(block)
                #expect(found, "\(block): this manifest fragment is not in ClientPackage/Package.swift, line for line")
            } else {
                let found = sources.contains { $0.contains(block) }
                #expect(found, "\(block): this example is in no file of Tests/DocumentationExamples, line for line")
            }
        }
    }

    @Test("every Swift example of the RPCCore article stands in the Greeter example package, which CI builds and tests")
    func ownServiceExamplesCompiled() throws {
        let greeter = Self.root.appendingPathComponent("Examples/Greeter")
        let sources = try ["Sources", "Tests"].flatMap { try Self.files(under: greeter.appendingPathComponent($0), withExtension: "swift") }
            .map { try ExampleSource(text: String(contentsOf: $0, encoding: .utf8)) }
        let manifest = try ExampleSource(text: String(contentsOf: greeter.appendingPathComponent("Package.swift"), encoding: .utf8))
        let article = try Self.files(under: Self.root.appendingPathComponent("Sources/RPCCore/RPCCore.docc"), withExtension: "md")
        let blocks = try Self.markdownBlocks(in: article, language: "swift")
        #expect(blocks.count >= 4, "the article's examples were not found")
        for block in blocks {
            let found = block.isManifestFragment ? manifest.contains(block) : sources.contains { $0.contains(block) }
            #expect(found, "\(block): this example is not in Examples/Greeter, line for line")
        }
    }

    @Test("the manifest that holds the documented manifest fragments reads, and names a product of this package")
    func manifestReads() throws {
        let data = try PackageGraph.dumpPackage(at: Self.manifest.deletingLastPathComponent())
        let used = try PackageGraph(manifestJSON: data).directDependencies(of: "MyApp")
        let products = try #require(TargetBoundaryTests.graph).products
        #expect(used.contains("CatalogKit"))
        #expect(used.isSubset(of: products), "\(used.subtracting(products).sorted()) are no products of this package")
    }

    @Test("every shell example parses", arguments: try markdownBlocks(language: "sh"))
    func shellParses(block: CodeBlock) throws {
        #expect(try Self.run(["bash", "-n"], input: block.lines) == 0, "\(block): bash -n fails")
    }

    @Test("every Python example compiles", arguments: try markdownBlocks(language: "python"))
    func pythonCompiles(block: CodeBlock) throws {
        let compile = ["python3", "-c", "import sys; compile(sys.stdin.read(), 'example', 'exec')"]
        #expect(try Self.run(compile, input: block.lines) == 0, "\(block): Python cannot compile it")
    }

    @Test("every JSON example parses", arguments: try markdownBlocks(language: "json"))
    func jsonParses(block: CodeBlock) throws {
        #expect(throws: Never.self, "\(block)") {
            try JSONSerialization.jsonObject(with: Data(block.lines.joined(separator: "\n").utf8), options: [.fragmentsAllowed])
        }
    }

    /// The ```swift blocks of the README, `docs/*.md`, the DocC catalog and the `///`
    /// comments of the client library and its view models.
    static func documentedBlocks() throws -> [CodeBlock] {
        var blocks = try markdownBlocks(language: "swift")
            + markdownBlocks(in: try files(under: root.appendingPathComponent("Clients/CatalogKit/CatalogKit.docc"), withExtension: "md"), language: "swift")
        for library in ["Clients/CatalogKit", "Clients/CatalogViewModels"] {
            for file in try files(under: root.appendingPathComponent(library), withExtension: "swift") {
                blocks += CodeBlock.inDocumentationComments(try String(contentsOf: file, encoding: .utf8), file: relative(file))
            }
        }
        return blocks
    }

    /// The blocks of `language` of the README and `docs/*.md`.
    static func markdownBlocks(language: String) throws -> [CodeBlock] {
        let files = [root.appendingPathComponent("README.md")] + (try files(under: root.appendingPathComponent("docs"), withExtension: "md"))
        return try markdownBlocks(in: files, language: language)
    }

    private static func markdownBlocks(in files: [URL], language: String) throws -> [CodeBlock] {
        try files.flatMap { CodeBlock.inMarkdown(try String(contentsOf: $0, encoding: .utf8), file: relative($0), language: language) }
    }

    /// Runs `arguments` with `input` on its standard input; its exit status.
    private static func run(_ arguments: [String], input: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.joined(separator: "\n").utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func relative(_ file: URL) -> String {
        String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
    }

    private static func files(under folder: URL, withExtension pathExtension: String) throws -> [URL] {
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == pathExtension }
            .sorted { $0.path < $1.path }
    }
}
