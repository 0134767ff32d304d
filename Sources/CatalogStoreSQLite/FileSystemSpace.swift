#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The free space of the file system holding a file.
enum FileSystemSpace {
    /// Below this many free bytes a file system counts as full: the next steps of SQLite (a
    /// WAL frame, a 32 KiB region of the shared-memory index, a spilled page) may not fit.
    static let fullBelowBytes: UInt64 = 1 << 20

    /// Whether the file system holding `path` has less than `fullBelowBytes` left for an
    /// unprivileged writer; `false` when that cannot be told.
    static func isFull(at path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < fullBelowBytes
    }
}
