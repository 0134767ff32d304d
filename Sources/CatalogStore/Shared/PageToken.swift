import Foundation
import RPCCore

/// Where the next page of a `listItems` starts: the last row's sort key and id (keyset
/// pagination, so pages stay stable under concurrent inserts), plus the query it belongs to.
/// Sent as base64 of its JSON.
package struct PageToken: Codable, Equatable {
    /// The sort (`title`, `price`, `createdAt`) and direction the token was made for.
    package var sort: String
    package var descending: Bool
    /// The filters the token was made for.
    package var filter: String
    /// The last row's sort key: text for title (and createdAt where a store keeps it as text),
    /// a number for price (hundredths, or none) and createdAt where a store keeps it as one.
    package var text: String?
    package var number: Int64?
    package var id: Int64

    package func encoded() -> String {
        // Encoding these plain fields cannot fail. Sorted keys: the same page has the same token.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(self)) ?? Data()
        return data.base64EncodedString()
    }

    package init(sort: String, descending: Bool, filter: String, text: String?, number: Int64?, id: Int64) {
        self.sort = sort
        self.descending = descending
        self.filter = filter
        self.text = text
        self.number = number
        self.id = id
    }

    /// `nil` when the string is not a token.
    package init?(encoded: String) {
        guard let data = Data(base64Encoded: encoded), !JSONNesting.exceeds(1, in: data),
            let token = try? JSONDecoder().decode(PageToken.self, from: data)
        else { return nil }
        self = token
    }
}
