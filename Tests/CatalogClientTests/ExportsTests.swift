import CatalogKit
import ServerFrameworkNames
import Testing

// This file imports CatalogKit and no other module of the package: what it names comes from
// CatalogKit's re-exports, or from ServerFrameworkNames, which declares names as server
// frameworks and apps do. Were CatalogKit to re-export a server type, a descriptor or a request,
// such a name would be ambiguous here and this file would not compile.

@Suite("import CatalogKit: the messages and the client's types, no server types")
struct ExportsTests {
    @Test("the types of the layers below that the client's API names are re-exported, and only these")
    func reexportedTypes() {
        let reexported: [Any.Type] = [
            CallOptions.self, CompressionAlgorithm.self, ErrorDetail.self, ErrorDetailNames.self, JSONValue.self, RPCCore.Metadata.self, RPCError.self,
            StatusCode.self, CertificateFiles.self, ClientTLS.self, HTTP2ClientConfiguration.self,
        ]
        #expect(
            reexported.map { String(reflecting: $0) } == [
                "RPCCore.CallOptions", "RPCCore.CompressionAlgorithm", "RPCCore.ErrorDetail", "RPCCore.ErrorDetailNames", "RPCCore.JSONValue", "RPCCore.Metadata",
                "RPCCore.RPCError", "RPCCore.StatusCode", "RPCHTTP2Core.CertificateFiles", "RPCHTTP2Client.ClientTLS",
                "RPCHTTP2Client.HTTP2ClientConfiguration",
            ])
        #expect(String(reflecting: (any ClientTransport).self) == "RPCCore.ClientTransport", "what `CatalogClient(transport:)` takes")
        let messages: [Any.Type] = [CatalogKit.Category.self, CatalogKit.Item.self, FilterState.self, FilterEvent.self, ListItemsResponse.self]
        #expect(messages.allSatisfy { String(reflecting: $0).hasPrefix("CatalogAPI.") })
    }

    @Test("where another module declares Category and Item, the module's name picks each")
    func appNamesBesideMessages() {
        let theirs = ServerFrameworkNames.Category(title: "Shelf")
        let ours: CatalogKit.Category? = nil
        let item: CatalogKit.Item? = nil
        #expect(String(reflecting: type(of: theirs)) == "ServerFrameworkNames.Category")
        #expect(String(reflecting: type(of: ours)) == "Swift.Optional<CatalogAPI.Category>")
        #expect(String(reflecting: type(of: item)) == "Swift.Optional<CatalogAPI.Item>")
        #expect(String(reflecting: type(of: ServerFrameworkNames.Item(title: "Lamp"))) == "ServerFrameworkNames.Item")
    }

    @Test("descriptors, requests and schema types are not re-exported: these names are the app's")
    func plumbingStaysOut() {
        #expect(String(reflecting: type(of: JSONSchema())) == "ServerFrameworkNames.JSONSchema")
        #expect(String(reflecting: type(of: ListItemsRequest())) == "ServerFrameworkNames.ListItemsRequest")
        #expect(String(reflecting: type(of: CategoriesService())) == "ServerFrameworkNames.CategoriesService")
    }

    @Test("a server framework's Router, ServerContext, MethodDescriptor and Empty are its own, unqualified")
    func serverNamesStayFree() {
        let router: Router = Router(framework: "hummingbird")
        let context: ServerContext = ServerContext()
        let descriptor: MethodDescriptor = MethodDescriptor(fullyQualifiedMethod: "catalog.v1.Catalog/GetItem")
        let empty: Empty = Empty()
        #expect(String(reflecting: type(of: router)) == "ServerFrameworkNames.Router")
        #expect(String(reflecting: type(of: context)) == "ServerFrameworkNames.ServerContext")
        #expect(String(reflecting: type(of: descriptor)) == "ServerFrameworkNames.MethodDescriptor")
        #expect(String(reflecting: type(of: empty)) == "ServerFrameworkNames.Empty")
    }

    @Test("both Metadata types are at hand, each by its module's name")
    func metadataOfBoth() {
        let theirs = ServerFrameworkNames.Metadata([("x-trace", "1")])
        var options = CallOptions()
        options.metadata = RPCCore.Metadata()
        for (key, value) in theirs.pairs { options.metadata.add(key, value) }
        #expect(options.metadata.first("x-trace") == "1")
        // A re-export names one type, which an unqualified name prefers over a module's own.
        let unqualified: Metadata = options.metadata
        #expect(String(reflecting: type(of: unqualified)) == "RPCCore.Metadata")
    }
}
