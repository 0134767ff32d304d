import Foundation

/// The CPU time a process has used so far (user + system), from `/proc/PID/stat`.
struct ProcessCPU {
    var pid: Int32

    /// Seconds of CPU, or `nil` when the process is gone.
    func seconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.lastIndex(of: ")")
        else { return nil }
        // After "pid (name)": state is field 3, utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
