import Foundation
import Testing

@Suite("catalog server and token: flag over environment over context")
struct AddressingTests {
    /// Which server a run reached: 0 for the live one, 78 for the dead one.
    private func reached(_ sandbox: CLISandbox, _ arguments: [String] = [], environment: [String: String] = [:]) async throws -> Int32 {
        try await sandbox.run(["category", "list"] + arguments, environment: environment).status
    }

    @Test("--server wins over CATALOG_SERVER, which wins over the current context")
    func serverPrecedence() async throws {
        try await withTestServer { server in
            let dead = try unusedAddress()
            let sandbox = try CLISandbox()
            try sandbox.writeConfig(#"{"current": "here", "contexts": {"here": {"server": "\#(server.address)"}, "gone": {"server": "\#(dead)"}}}"#)
            #expect(try await reached(sandbox) == 0, "the current context")
            #expect(try await reached(sandbox, environment: ["CATALOG_SERVER": dead]) == 78, "environment over current context")
            #expect(try await reached(sandbox, ["--server", server.address], environment: ["CATALOG_SERVER": dead]) == 0, "flag over environment")
            #expect(try await reached(sandbox, ["--server", dead]) == 78, "flag over current context")

            try sandbox.writeConfig(#"{"current": "gone", "contexts": {"here": {"server": "\#(server.address)"}, "gone": {"server": "\#(dead)"}}}"#)
            #expect(try await reached(sandbox) == 78, "the current context")
            #expect(try await reached(sandbox, environment: ["CATALOG_SERVER": server.address]) == 0, "environment over current context")
        }
    }

    @Test("a context named with --context wins over CATALOG_SERVER, and --server over it")
    func namedContext() async throws {
        try await withTestServer { server in
            let dead = try unusedAddress()
            let sandbox = try CLISandbox()
            try sandbox.writeConfig(#"{"contexts": {"here": {"server": "\#(server.address)"}, "gone": {"server": "\#(dead)"}}}"#)
            #expect(try await reached(sandbox, ["--context", "here"], environment: ["CATALOG_SERVER": dead]) == 0)
            #expect(try await reached(sandbox, ["--context", "gone"], environment: ["CATALOG_SERVER": server.address]) == 78)
            #expect(try await reached(sandbox, ["--context", "gone", "--server", server.address]) == 0)

            let missing = try await sandbox.run(["category", "list", "--context", "elsewhere"])
            #expect(missing.status == 2, "\(missing)")
            #expect(missing.stderr.contains("no context 'elsewhere'") && missing.stderr.contains("gone, here"), "\(missing)")
        }
    }

    @Test("CATALOG_CONFIG and XDG_CONFIG_HOME choose the config file; a broken one is a usage error")
    func configPath() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            let config = #"{"current": "here", "contexts": {"here": {"server": "\#(server.address)"}}}"#
            let custom = try sandbox.writeFile("custom.json", config)
            #expect(try await reached(sandbox, environment: ["CATALOG_CONFIG": custom]) == 0)

            let xdg = sandbox.directory.appendingPathComponent("xdg")
            try FileManager.default.createDirectory(at: xdg.appendingPathComponent("catalog"), withIntermediateDirectories: true)
            try Data(config.utf8).write(to: xdg.appendingPathComponent("catalog/config.json"))
            #expect(try await reached(sandbox, environment: ["XDG_CONFIG_HOME": xdg.path]) == 0)

            let broken = try sandbox.writeFile("broken.json", #"{"contexts": {"here": {"server": 50051}}}"#)
            let result = try await sandbox.run(["category", "list"], environment: ["CATALOG_CONFIG": broken])
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains(broken) && result.stderr.contains("contexts.here.server"), "\(result)")
        }
    }

    @Test("the token: the named context's, else CATALOG_TOKEN, else the current context's; never a flag")
    func tokenPrecedence() async throws {
        try await withTokenEchoServer { address in
            let sandbox = try CLISandbox()
            func sentToken(_ arguments: [String] = [], environment: [String: String] = [:]) async throws -> String? {
                let result = try await sandbox.run(
                    ["call", "grpc.health.v1.Health/Check", "--server", address] + arguments, environment: environment)
                #expect(result.status == 0, "\(result)")
                return try result.jsonObject()["status"] as? String
            }
            #expect(try await sentToken() == "-")
            #expect(try await sentToken(environment: ["CATALOG_TOKEN": "from-env"]) == "Bearer from-env")

            try sandbox.writeConfig(
                #"{"current": "main", "contexts": {"main": {"token": "from-current"}, "named": {"token": "from-named"}, "open": {}}}"#)
            #expect(try await sentToken() == "Bearer from-current")
            #expect(try await sentToken(environment: ["CATALOG_TOKEN": "from-env"]) == "Bearer from-env")
            #expect(try await sentToken(["--context", "named"], environment: ["CATALOG_TOKEN": "from-env"]) == "Bearer from-named")
            #expect(
                try await sentToken(["--context", "open"], environment: ["CATALOG_TOKEN": "from-env"]) == "-",
                "a token never goes to a context it was not given for")

            let flag = try await sandbox.run(["category", "list", "--token", "x", "--server", address])
            #expect(flag.status == 2, "no --token flag: \(flag)")
        }
    }
}
