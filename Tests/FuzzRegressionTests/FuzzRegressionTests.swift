import Foundation
import FuzzTargets
import Testing

/// Every input in `Fuzz/Regressions` (edge cases written by hand, and whatever the fuzzer ever
/// crashed on) goes through the fuzz targets again: each must keep their promises.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Regressions")

    /// The connection target's filters, loaded once.
    static let connectionPrepared = Task { try await ConnectionFuzzTarget.prepare() }

    static let inputs: [String] = (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? []

    @Test("the regression corpus is there")
    func corpusExists() {
        #expect(Self.inputs.count >= 18, "\(Self.directory.path)")
    }

    @Test("each input is handled as promised", arguments: inputs)
    func replay(name: String) async throws {
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(name)))
        if name.hasPrefix("connection-") {
            try await Self.connectionPrepared.value
            #expect(throws: Never.self) { try ConnectionFuzzTarget.run(bytes) }
        } else if name.hasPrefix("http1-") {
            try await Self.connectionPrepared.value
            #expect(throws: Never.self) { try HTTP1FuzzTarget.run(bytes) }
        } else {
            #expect(throws: Never.self) { try FuzzTargets.run(bytes) }
        }
    }
}
