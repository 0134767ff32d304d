import Foundation
import Testing

/// A process's resident set size (`VmRSS` in `/proc/<pid>/status`), in KiB.
func residentMemoryKiB(of pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
    return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
}
