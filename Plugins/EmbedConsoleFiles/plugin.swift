import PackagePlugin

/// Writes the files of a target's `Assets/` folder into a Swift source of that target, so
/// that they ship inside the binary (see `embed-files`).
@main
struct EmbedConsoleFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles
            .map(\.url)
            .filter { $0.deletingLastPathComponent().lastPathComponent == "Assets" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) files of \(target.name)",
                executable: try context.tool(named: "embed-files").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
