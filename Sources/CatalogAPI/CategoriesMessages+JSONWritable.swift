import RPCCore

// The answers of Categories.List and Categories.Stats hold every category: written directly,
// they skip `Codable`'s containers and keyed lookups (Benchmarks/json-encoding.sh measures it).

extension Category: JSONWritable {
    package func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("id", id)
        writer.member("name", name)
        writer.member("slug", slug)
        writer.member("color", color)
        writer.member("icon", icon)
        writer.member("position", position)
        writer.member("isDefault", isDefault)
        writer.member("itemCount", itemCount)
        writer.member("revision", revision)
        writer.member("createdAt", createdAt)
        writer.member("updatedAt", updatedAt)
        writer.endObject()
    }
}

extension CategoryList: JSONWritable {
    package func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("categories")
        writer.beginArray()
        for category in categories { category.writeJSON(to: &writer) }
        writer.endArray()
        writer.endObject()
    }
}

extension CategoryStats: JSONWritable {
    package func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("categoryCount", categoryCount)
        writer.member("itemCount", itemCount)
        writer.member("uncategorizedItemCount", uncategorizedItemCount)
        writer.member("emptyCategoryCount", emptyCategoryCount)
        writer.key("categories")
        writer.beginArray()
        for entry in categories {
            writer.beginObject()
            writer.member("id", entry.id)
            writer.member("name", entry.name)
            writer.member("itemCount", entry.itemCount)
            writer.member("share", entry.share)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }
}
