import CatalogKit
import Foundation
import Testing

/// `--codec cbor` (env `CATALOG_CODEC`) changes the wire, not what is printed.
@Suite("catalog --codec")
struct CodecOptionTests {
    @Test("lists, reads, writes and raw calls print the same in CBOR as in JSON (a raw call's keys sorted)")
    func samePrinted() async throws {
        try await withTestServer { server in
            let sandbox = try CLISandbox()
            for arguments in [["category", "list", "-o", "json"], ["item", "list", "-o", "json"], ["filter", "get", "categories", "-o", "json"]] {
                let json = try await sandbox.run(arguments + ["--server", server.address])
                let cbor = try await sandbox.run(arguments + ["--server", server.address, "--codec", "cbor"])
                #expect(json.status == 0 && cbor.status == 0, "\(json) \(cbor)")
                #expect(cbor.stdout == json.stdout, "\(arguments)")
            }
            let call = ["call", "catalog.v1.Categories/Get", "-d", #"{"id": 2}"#, "--server", server.address]
            let json = try await sandbox.run(call)
            let cbor = try await sandbox.run(call + ["--codec", "cbor"])
            #expect(try NSDictionary(dictionary: cbor.jsonObject()) == NSDictionary(dictionary: json.jsonObject()), "\(cbor)")
            let created = try await sandbox.run(["category", "create", "Livres", "-o", "json", "--server", server.address],
                                                environment: ["CATALOG_CODEC": "cbor"])
            #expect(created.status == 0, "\(created)")
            #expect(try created.jsonObject()["name"] as? String == "Livres")
            let missing = try await sandbox.run(["item", "get", "987654", "--server", server.address, "--codec", "cbor"])
            #expect(missing.status == 69, "\(missing)")
        }
    }

    @Test("an unknown codec is a usage error, from the flag or the environment")
    func unknownCodec() async throws {
        let sandbox = try CLISandbox()
        let flag = try await sandbox.run(["category", "list", "--codec", "xml"])
        #expect(flag.status == 64 || flag.status == 2, "\(flag)")
        let variable = try await sandbox.run(["category", "list"], environment: ["CATALOG_CODEC": "xml"])
        #expect(variable.status == 2, "\(variable)")
        #expect(variable.stderr.contains("CATALOG_CODEC"), "\(variable)")
    }
}
