import Foundation

/// Reads YAML with an independent parser (PyYAML's `safe_load`, as installed by
/// `scripts/setup.sh`) and returns it as the JSON value it denotes.
enum YAMLReader {
    static func jsonValue(of yaml: String) async throws -> Any {
        let script = "import sys, json, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)"
        let result = try await CLIProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", script],
            environment: ProcessInfo.processInfo.environment, stdin: Data(yaml.utf8), timeout: .seconds(30))
        guard result.status == 0 else { throw CLIProcessError("PyYAML could not read the YAML: \(result)") }
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
    }
}
