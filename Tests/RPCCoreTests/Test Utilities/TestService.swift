import RPCCore

/// Messages and methods of a small service for router tests.
enum TestService {
    struct GetItemRequest: Codable, Sendable, Equatable {
        var id: Int
    }

    struct Item: Codable, Sendable, Equatable {
        var id: Int
        var name: String
    }

    struct ListItemsRequest: Codable, Sendable, Equatable {
        var count: Int
    }

    static let getItem = UnaryMethod<GetItemRequest, Item>(service: "test.v1.Items", method: "Get")
    static let listItems = ServerStreamingMethod<ListItemsRequest, Item>(service: "test.v1.Items", method: "List")
    static let ping = UnaryMethod<Empty, Empty>(service: "a.v1.Health", method: "Ping")
}
