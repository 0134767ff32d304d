import RPCCore

// A point read (GetItem, Categories.Get) does so little else that decoding its request and
// encoding its answer through `Codable` took a third of its time.

extension IDRequest: JSONReadable {
    package init?(json reader: inout JSONReader) {
        var id: Int64?
        let read = reader.readObject { reader, key in
            guard key == "id", id == nil, let value = reader.int64() else { return false }
            id = value
            return true
        }
        guard read, let id else { return nil }
        self.init(id: id)
    }
}

extension Item: JSONWritable {
    package func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("id", id)
        writer.member("title", title)
        writer.member("summary", summary)
        writer.member("level", level)
        writer.member("duration", duration)
        if let price {
            writer.key("price")
            writer.beginObject()
            writer.member("amount", price.amount)
            writer.member("currency", price.currency)
            writer.endObject()
        }
        writer.member("imageURL", imageURL)
        writer.member("categoryId", categoryId)
        writer.member("createdAt", createdAt)
        writer.member("updatedAt", updatedAt)
        writer.endObject()
    }
}

extension ListItemsResponse: JSONWritable {
    package func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("items")
        writer.beginArray()
        for item in items { item.writeJSON(to: &writer) }
        writer.endArray()
        writer.member("nextPageToken", nextPageToken)
        writer.member("totalCount", totalCount)
        writer.endObject()
    }
}
