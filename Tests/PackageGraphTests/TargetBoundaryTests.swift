import Foundation
import Testing

/// The layers of the package, read from its manifest: a target that reaches across a
/// boundary (a store that pulls in the transport, services that pull in NIO) fails here.
@Suite("Target boundaries")
struct TargetBoundaryTests {
    static let graph: PackageGraph? = try? PackageGraph.load()

    @Test("the package manifest can be read")
    func manifestReads() throws {
        let graph = try #require(Self.graph)
        #expect(graph.targets["RPCCore"] != nil)
    }

    @Test("the store protocols depend on the messages only")
    func storeProtocols() throws {
        let graph = try #require(Self.graph)
        #expect(graph.directDependencies(of: "CatalogStore") == ["CatalogAPI"])
    }

    @Test("each store depends on the store protocols, not on the services or the transport")
    func stores() throws {
        let graph = try #require(Self.graph)
        for store in graph.targets.keys where store.hasPrefix("CatalogStore") && store != "CatalogStore" && !store.hasSuffix("Tests") {
            #expect(graph.directDependencies(of: store).contains("CatalogStore"), "\(store)")
            let reached = graph.reachable(from: store)
            for forbidden in ["CatalogServices", "CatalogServer", "RPCHTTP2", "CNGHTTP2"] {
                #expect(!reached.contains(forbidden), "\(store) reaches \(forbidden)")
            }
            #expect(reached.filter(\.isNIO).isEmpty, "\(store) reaches \(reached.filter(\.isNIO).sorted())")
        }
    }

    @Test(
        "services, store protocols, messages and the RPC core use no NIO, no nghttp2, no database and no C; nor do the services' tests",
        arguments: ["CatalogServices", "CatalogStore", "CatalogAPI", "RPCCore", "CatalogServicesTests", "CatalogServicesTestSupport"])
    func transportFree(target: String) throws {
        let graph = try #require(Self.graph)
        let reached = graph.reachable(from: target)
        #expect(reached.filter(\.isNIO).isEmpty, "\(reached.filter(\.isNIO).sorted())")
        for forbidden in ["RPCHTTP2", "CNGHTTP2", "CZlib", "GRDB", "GRDBSQLite", "CatalogStoreSQLite", "CatalogServer"] {
            #expect(!reached.contains(forbidden), "\(target) reaches \(forbidden)")
        }
    }

    @Test("the call layer, message framing and the in-process front end use no NIO and no HTTP library")
    func callLayer() throws {
        let graph = try #require(Self.graph)
        for target in ["RPCCallLayer", "RPCFraming", "RPCInProcess"] {
            let reached = graph.reachable(from: target)
            #expect(reached.filter(\.isNIO).isEmpty, "\(target) reaches \(reached.filter(\.isNIO).sorted())")
            for forbidden in ["CNGHTTP2", "RPCHTTP2Core", "RPCHTTP2", "RPCHTTP2Client"] {
                #expect(!reached.contains(forbidden), "\(target) reaches \(forbidden)")
            }
        }
        #expect(!graph.reachable(from: "RPCFraming").contains("RPCCallLayer"), "the client's framing carries no server part")
    }

    @Test("the URLSession transport depends on the RPC core only: no NIO, no C library")
    func urlSessionTransport() throws {
        let graph = try #require(Self.graph)
        #expect(graph.directDependencies(of: "RPCURLSession") == ["RPCCore"])
        #expect(graph.reachable(from: "RPCURLSession") == ["RPCCore"])
    }

    @Test("the client library carries no server part")
    func client() throws {
        let graph = try #require(Self.graph)
        for target in ["CatalogKit", "CatalogViewModels", "CatalogCLI", "catalog"] {
            let reached = graph.reachable(from: target)
            for forbidden in ["CatalogServices", "CatalogStore", "CatalogStoreSQLite", "CatalogServer", "GRDB"] {
                #expect(!reached.contains(forbidden), "\(target) reaches \(forbidden)")
            }
        }
    }

    @Test("the client's HTTP/2 connections carry no server code, and TLS only with the ClientTLS trait")
    func http2Client() throws {
        let graph = try #require(Self.graph)
        for target in ["RPCHTTP2Client", "CatalogKit"] {
            let reached = graph.reachable(from: target)
            for forbidden in ["RPCHTTP2", "ServiceLifecycle", "NIOHTTP1", "CatalogServer"] {
                #expect(!reached.contains(forbidden), "\(target) reaches \(forbidden)")
            }
            #expect(reached.isSuperset(of: ["RPCHTTP2Client", "NIOSSL"].filter { $0 != target }), "\(target): \(reached.sorted())")
            let withoutTLS = graph.reachable(from: target, traits: [])
            #expect(withoutTLS.isDisjoint(with: ["NIOSSL", "NIOTLS", "RPCHTTP2TLS"]), "\(target) without ClientTLS: \(withoutTLS.sorted())")
        }
    }

    @Test(
        "the RPC libraries name no catalog: a service of its own builds on them as the catalog does",
        arguments: ["RPCCore", "RPCHTTP2Core", "RPCHTTP2TLS", "RPCHTTP2Client", "RPCHTTP2", "RPCURLSession", "RPCTracing"])
    func serviceNeutral(target: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/\(target)")
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(!files.isEmpty)
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where line.localizedCaseInsensitiveContains("catalog") {
                Issue.record("\(target)/\(file.lastPathComponent):\(number + 1) names the catalog: \(line)")
            }
        }
    }

    @Test("the view models depend on the client library only")
    func viewModels() throws {
        let graph = try #require(Self.graph)
        #expect(graph.directDependencies(of: "CatalogViewModels") == ["CatalogKit"])
    }

    @Test("the services and the store reach the transport only through the server assembly")
    func assembly() throws {
        let graph = try #require(Self.graph)
        #expect(graph.directDependencies(of: "CatalogServer").isSuperset(of: ["CatalogServices", "RPCHTTP2"]))
        #expect(!graph.reachable(from: "CatalogServer").contains("CatalogStoreSQLite"))
    }
}

extension String {
    /// A SwiftNIO module (`NIOCore`, `NIOPosix`, `NIOSSL`…).
    fileprivate var isNIO: Bool { hasPrefix("NIO") }
}
