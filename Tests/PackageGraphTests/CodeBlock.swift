import Foundation

/// A fenced code block of the documentation (```swift, ```sh…): of a Markdown file, or of a
/// `///` comment.
struct CodeBlock: CustomStringConvertible {
    /// The file, relative to the package root.
    var file: String
    /// The line of the opening fence, from 1.
    var line: Int
    /// The lines between the fences, as written.
    var lines: [String]

    var description: String { "\(file):\(line)" }

    /// A manifest fragment, which a block says by starting with `// Package.swift`.
    var isManifestFragment: Bool { lines.first?.trimmed == "// Package.swift" }

    /// The modules of the `import` lines that open the block.
    var imports: Set<String> { Set(leadingImports.compactMap(\.importedModule)) }

    /// The lines after the opening imports, trimmed, without blank lines at either end.
    var body: [String] {
        var body = Array(lines.dropFirst(leadingImports.count).map(\.trimmed))
        while body.first == "" { body.removeFirst() }
        while body.last == "" { body.removeLast() }
        return body
    }

    private var leadingImports: ArraySlice<String> { lines.prefix { $0.importedModule != nil } }

    /// The blocks of `language` (`swift`, `sh`…) of a Markdown text.
    static func inMarkdown(_ text: String, file: String, language: String = "swift") -> [CodeBlock] {
        blocks(in: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), file: file, language: language)
    }

    /// The ```swift blocks of the `///` comments of a Swift source text.
    static func inDocumentationComments(_ text: String, file: String) -> [CodeBlock] {
        // Keep line numbers: a line outside a `///` comment becomes a blank line.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let trimmed = line.trimmed
            guard trimmed.hasPrefix("///") else { return "" }
            let comment = trimmed.dropFirst(3)
            return String(comment.hasPrefix(" ") ? comment.dropFirst() : comment)
        }
        return blocks(in: lines, file: file, language: "swift")
    }

    private static func blocks(in lines: [String], file: String, language: String) -> [CodeBlock] {
        var blocks: [CodeBlock] = []
        var open: CodeBlock?
        for (index, line) in lines.enumerated() {
            if var block = open {
                if line.trimmed == "```" {
                    blocks.append(block)
                    open = nil
                } else {
                    block.lines.append(line)
                    open = block
                }
            } else if line.trimmed == "```" + language {
                open = CodeBlock(file: file, line: index + 1, lines: [])
            }
        }
        return blocks
    }
}

/// A Swift source file that holds documented examples.
struct ExampleSource {
    var lines: [String]
    var imports: Set<String>

    init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(\.trimmed)
        imports = Set(lines.compactMap(\.importedModule))
    }

    /// Whether `block` is in this file: its imports among the file's, and the rest of its
    /// lines one after the other, each trimmed of its indentation.
    func contains(_ block: CodeBlock) -> Bool {
        let body = block.body
        guard block.imports.isSubset(of: imports), !body.isEmpty, body.count <= lines.count else { return false }
        return (0...(lines.count - body.count)).contains { start in
            lines[start..<(start + body.count)].elementsEqual(body)
        }
    }
}

extension StringProtocol {
    var trimmed: String { trimmingCharacters(in: .whitespaces) }

    /// `M` for a line `import M`.
    fileprivate var importedModule: String? {
        let words = trimmed.split(separator: " ")
        guard words.count == 2, words[0] == "import" else { return nil }
        return String(words[1])
    }
}
