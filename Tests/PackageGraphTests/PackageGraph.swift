import Foundation

/// The targets of this package and what each depends on (its own targets and other
/// packages' products, by name), as `swift package dump-package` prints the manifest.
struct PackageGraph {
    /// Each target's direct dependencies.
    var targets: [String: Set<String>]
    /// The dependencies that only a trait brings in, by target: the traits that do.
    var traitConditions: [String: [String: Set<String>]]
    /// The names of the products.
    var products: Set<String>

    /// Reads the manifest of the package this file belongs to.
    static func load(filePath: String = #filePath) throws -> PackageGraph {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try PackageGraph(manifestJSON: dumpPackage(at: root))
    }

    /// `swift package dump-package` of the package at `root`: its manifest as JSON.
    static func dumpPackage(at root: URL) throws -> Data {
        // Its own scratch path: the build directory is locked while `swift test` runs.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("package-graph-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ManifestUnreadable(status: process.terminationStatus) }
        return data
    }

    init(manifestJSON: Data) throws {
        let manifest = try JSONDecoder().decode(Manifest.self, from: manifestJSON)
        targets = Dictionary(uniqueKeysWithValues: manifest.targets.map { ($0.name, Set($0.dependencies.compactMap(\.name))) })
        traitConditions = Dictionary(uniqueKeysWithValues: manifest.targets.map { target in
            (target.name, Dictionary(target.dependencies.compactMap { dependency in
                dependency.name.flatMap { name in dependency.traits.map { (name, $0) } }
            }, uniquingKeysWith: { $0.union($1) }))
        })
        products = Set(manifest.products.map(\.name))
    }

    func directDependencies(of target: String) -> Set<String> { targets[target] ?? [] }

    /// Every target and product `target` depends on, directly or through its own targets;
    /// with `traits`, only the dependencies those enabled traits bring in besides the
    /// unconditional ones (`nil`: every dependency, whatever its condition).
    func reachable(from target: String, traits: Set<String>? = nil) -> Set<String> {
        var reached: Set<String> = []
        var pending = Array(directDependencies(of: target, traits: traits))
        while let next = pending.popLast() {
            guard reached.insert(next).inserted else { continue }
            pending += directDependencies(of: next, traits: traits)
        }
        return reached
    }

    private func directDependencies(of target: String, traits: Set<String>?) -> Set<String> {
        guard let traits else { return directDependencies(of: target) }
        let conditions = traitConditions[target] ?? [:]
        return directDependencies(of: target).filter { conditions[$0].map { !$0.isDisjoint(with: traits) } ?? true }
    }
}

struct ManifestUnreadable: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "swift package dump-package exited with status \(status)" }
}

/// The parts of `dump-package`'s JSON that name products and dependencies.
private struct Manifest: Decodable {
    var targets: [Target]
    var products: [Product]

    struct Product: Decodable {
        var name: String
    }

    struct Target: Decodable {
        var name: String
        var dependencies: [Dependency]
    }

    /// `{"byName": ["X", null]}`, `{"target": ["X", null]}` or `{"product": ["X", "package", null, null]}`.
    struct Dependency: Decodable {
        var name: String?
        /// The traits that bring it in, when a condition names some.
        var traits: Set<String>?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Kind.self)
            guard let kind = container.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an empty dependency"))
            }
            var values = try container.nestedUnkeyedContainer(forKey: kind)
            name = try values.decodeNil() ? nil : values.decode(String.self)
            // The condition comes last: `{"platformNames": [...], "traits": [...]}` or null.
            while !values.isAtEnd {
                if try values.decodeNil() { continue }
                if let condition = try? values.decode(Condition.self) {
                    traits = condition.traits.flatMap { $0.isEmpty ? nil : Set($0) }
                } else {
                    _ = try? values.decode(String.self)
                }
            }
        }

        struct Condition: Decodable {
            var traits: [String]?
        }

        struct Kind: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }
}
