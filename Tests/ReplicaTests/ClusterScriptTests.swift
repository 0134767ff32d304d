import CatalogAPI
import CatalogKit
import CatalogdTestSupport
import ChildProcess
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `scripts/run-cluster.sh`, as a user runs it to try fail-over: PostgreSQL, three replicas and
/// nghttpx in front of them.
@Suite("scripts/run-cluster.sh", .serialized, .timeLimit(.minutes(3)))
struct ClusterScriptTests {
    @Test("serves through the load balancer, keeps a Watch going while replicas are killed, and stops everything on SIGTERM")
    func failOverByHand() async throws {
        let root = try CatalogdProcess.packageRoot()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("run-cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("output.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let balancerPort = try freeLoopbackPort()
        let replicaPorts = try (0..<3).map { _ in try freeLoopbackPort() }

        let script = ChildProcess()
        script.executableURL = URL(fileURLWithPath: "/bin/bash")
        script.arguments = [root.appendingPathComponent("scripts/run-cluster.sh").path]
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CATALOG_") }
        environment["CATALOGD"] = root.appendingPathComponent(".build/debug/catalogd").path
        environment["PORT"] = "\(balancerPort)"
        environment["REPLICA_PORTS"] = replicaPorts.map(String.init).joined(separator: " ")
        script.environment = environment
        let handle = try FileHandle(forWritingTo: output)
        script.standardOutput = handle
        script.standardError = handle
        try script.run()
        defer {
            // Whatever happened, the script stops what it started (a SIGKILL would leave it running).
            if script.isRunning {
                script.send(signal: SIGTERM)
                script.waitUntilExit()
            }
        }
        let read = { String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self) }
        try await eventually(timeout: .seconds(60), "the cluster to be ready; output so far:\n\(read())") {
            read().contains("cluster ready")
        }
        let lines = read().split(separator: "\n")
        let replicaPIDs = lines.filter { $0.hasPrefix("replica ") }.compactMap { line in
            line.split(separator: " ").last(where: { Int32($0) != nil }).flatMap { Int32($0) }
        }
        #expect(replicaPIDs.count == 3, "\(lines)")
        let postgresDirectory = lines.first { $0.hasPrefix("postgresql: ") }?.split(separator: "=").last.map(String.init)

        let balancerPID = try #require(lines.first { $0.hasPrefix("load balancer: ") }?.split(separator: " ").last(where: { Int32($0) != nil }))
        var direct: [CatalogClient] = []
        for port in replicaPorts { direct.append(try await CatalogClient.connect(port: port, configuration: .replicaTests)) }
        let start = try await direct[0].filters.define(
            "shared", title: "Shared", options: [FilterOption(id: 1, title: "One"), FilterOption(id: 2, title: "Two")])
        let balanced = try await CatalogClient.connect(port: balancerPort, configuration: .replicaTests)
        let interruptions = Mutex(0)
        let recorder = WatchRecorder(
            "watch through nghttpx",
            balanced.filters.watch("shared", sinceRevision: start.revision, delivery: .everyChange) { _ in
                interruptions.withLock { $0 += 1 }
            })
        var last = start
        for step in 0..<10 { last = try await direct[0].filters.select("shared", optionId: Int64(step % 2) + 1) }
        try await recorder.waitForRevision(last.revision)

        // The Watch is the balancer's only call so far: the one replica it connected to serves it.
        let watched = try #require(try Self.backendPorts(ofProcess: String(balancerPID), among: replicaPorts).first)
        let index = try #require(replicaPorts.firstIndex(of: watched))
        kill(replicaPIDs[index], SIGKILL)
        let writer = direct[(index + 1) % replicaPorts.count]
        for step in 0..<10 { last = try await writer.filters.select("shared", optionId: Int64(step % 2) + 1) }
        try await recorder.waitForRevision(last.revision)
        #expect(recorder.gapFreeBreak(after: start.revision) == nil)
        #expect(recorder.states.last?.state == last)
        #expect(interruptions.withLock { $0 } >= 1, "the watched replica's end reached the Watch")
        // A replica the balancer picks may hear of the last change a few milliseconds later.
        try await eventually("reads through the balancer to answer the last state") {
            try await balanced.filters.get("shared") == last
        }
        recorder.stop()
        await balanced.close()
        for client in direct { await client.close() }

        script.send(signal: SIGTERM)
        script.waitUntilExit()
        #expect(script.terminationStatus == 0, "\(read())")
        if let postgresDirectory {
            #expect(!FileManager.default.fileExists(atPath: postgresDirectory), "the PostgreSQL directory is removed")
        }
    }

    /// The ports among `ports` that process `pid` or one of its children (nghttpx's workers)
    /// holds a TCP connection to: the inodes of their sockets in /proc/PID/fd, looked up in
    /// /proc/net/tcp.
    static func backendPorts(ofProcess pid: String, among ports: [Int]) throws -> [Int] {
        let processes = [pid] + (try FileManager.default.contentsOfDirectory(atPath: "/proc")).filter { entry in
            guard Int(entry) != nil, let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8) else { return false }
            // "pid (name) state ppid …"
            return stat.split(separator: ")").last?.split(separator: " ").dropFirst().first.map(String.init) == pid
        }
        var inodes = Set<String>()
        for process in processes {
            let fdDirectory = "/proc/\(process)/fd"
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: fdDirectory)) ?? [] {
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fdDirectory)/\(fd)"),
                    target.hasPrefix("socket:[") else { continue }
                inodes.insert(String(target.dropFirst("socket:[".count).dropLast()))
            }
        }
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/tcp"))
        defer { try? file.close() }
        let table = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        var found: [Int] = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[3] == "01", inodes.contains(String(fields[9])),
                let remotePort = fields[2].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                ports.contains(remotePort)
            else { continue }
            found.append(remotePort)
        }
        return found
    }
}
