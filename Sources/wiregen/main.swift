import Foundation
import WireGen

// `swift run wiregen [--check]`: reads Sources/CatalogAPI/Wire/*.wire and writes
// Sources/CatalogAPI/Generated/<name>.generated.swift for each; with --check, writes nothing and exits 1
// when a generated file differs from what is committed. Run from the package root.

let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let check = CommandLine.arguments.dropFirst().contains("--check")
do {
    let outputs = try WireGenerator.generate(packageRoot: root)
    var stale: [String] = []
    for output in outputs {
        let current = try? String(contentsOf: output.url, encoding: .utf8)
        guard current != output.source else { continue }
        stale.append(output.url.lastPathComponent)
        if !check { try output.source.write(to: output.url, atomically: true, encoding: .utf8) }
    }
    if check, !stale.isEmpty {
        FileHandle.standardError.write(Data("wiregen: out of date: \(stale.joined(separator: ", "))\n".utf8))
        exit(1)
    }
    FileHandle.standardError.write(Data("wiregen: \(outputs.count) files, \(check ? "checked" : "\(stale.count) written")\n".utf8))
} catch {
    FileHandle.standardError.write(Data("wiregen: \(error)\n".utf8))
    exit(1)
}
