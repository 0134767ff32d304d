import Foundation
import Testing

/// The libraries build on Linux (Glibc or Musl) and on Apple platforms (Darwin), where the
/// apps that use the client library live: every import of a C library of the OS stands under
/// its own `#if canImport(…)`.
@Suite("Platform imports")
struct PlatformImportTests {
    static let osModules = ["Glibc", "Musl", "Darwin"]

    @Test("every import of Glibc, Musl or Darwin is guarded by canImport of that module")
    func guardedImports() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var checked = 0
        for folder in ["Sources", "Clients"] {
            for file in try swiftFiles(under: root.appendingPathComponent(folder)) {
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated() {
                    guard let module = Self.osModules.first(where: { line.trimmingCharacters(in: .whitespaces) == "import \($0)" })
                    else { continue }
                    checked += 1
                    let previous = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                    #expect(
                        previous == "#if canImport(\(module))" || previous == "#elseif canImport(\(module))",
                        "\(file.lastPathComponent):\(index + 1) imports \(module) unguarded")
                }
            }
        }
        #expect(checked > 0, "no OS import found: the scan looked in the wrong place")
    }

    private func swiftFiles(under folder: URL) throws -> [URL] {
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }
}
