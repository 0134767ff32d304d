import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whether this process may mount a file system (root: CI runs as root).
let canMountFileSystems = geteuid() == 0

/// Runs `body` with a fresh directory on a tmpfs of `bytes` bytes mounted for it, then
/// unmounts it (lazily, so files still open do not keep it) and removes the directory.
func withSmallFileSystem<T>(bytes: Int, _ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("catalog-small-fs-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    guard mount("tmpfs", directory.path, "tmpfs", 0, "size=\(bytes)") == 0 else {
        throw SmallFileSystemError(message: "cannot mount a tmpfs on \(directory.path): \(String(cString: strerror(errno)))")
    }
    defer { umount2(directory.path, Int32(MNT_DETACH)) }
    return try await body(directory)
}

struct SmallFileSystemError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
