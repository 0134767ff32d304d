import Foundation

/// Where the generator reads and writes in the package: `Sources/CatalogAPI/Wire/*.wire` in,
/// `Sources/CatalogAPI/Generated/<name>.generated.swift` out.
package enum WireGenerator {
    package static let wireFolder = "Sources/CatalogAPI/Wire"
    package static let generatedFolder = "Sources/CatalogAPI/Generated"

    /// Each generated file's place and text, from the `.wire` files under `packageRoot`.
    package static func generate(packageRoot: URL) throws -> [(url: URL, source: String)] {
        let folder = packageRoot.appendingPathComponent(wireFolder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".wire") }.sorted()
        var parser = WireParser()
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            try parser.parse(text, name: String(name.dropLast(".wire".count)))
        }
        let output = packageRoot.appendingPathComponent(generatedFolder)
        return SwiftGenerator(spec: try parser.finish()).generate().map { file in
            (output.appendingPathComponent("\(file.name).generated.swift"), file.source)
        }
    }
}
