import Foundation

/// Where the next page of a `listItems` starts: the last row's sort key and id (keyset
/// pagination, so pages stay stable under concurrent inserts), plus the query it belongs to.
/// Sent as base64 of its JSON.
struct PageToken: Codable, Equatable {
    /// The sort (`title`, `price`, `createdAt`) and direction the token was made for.
    var sort: String
    var descending: Bool
    /// The filters the token was made for.
    var filter: String
    /// The last row's sort key: text for title and createdAt, hundredths (or none) for price.
    var text: String?
    var number: Int64?
    var id: Int64

    func encoded() -> String {
        // Encoding these plain fields cannot fail.
        let data = (try? JSONEncoder().encode(self)) ?? Data()
        return data.base64EncodedString()
    }

    init(sort: String, descending: Bool, filter: String, text: String?, number: Int64?, id: Int64) {
        self.sort = sort
        self.descending = descending
        self.filter = filter
        self.text = text
        self.number = number
        self.id = id
    }

    /// `nil` when the string is not a token.
    init?(encoded: String) {
        guard let data = Data(base64Encoded: encoded),
            let token = try? JSONDecoder().decode(PageToken.self, from: data)
        else { return nil }
        self = token
    }
}
