import CatalogKit
import Foundation
import RPCCore

/// The categories of a file for `category import`: an export document (`catalog category
/// export`, format `catalog.categories.v1`) or a bare JSON array of its category records.
package enum ImportFile {
    /// The records in the file at `path` (`-`: standard input), in file order.
    ///
    /// - Throws: ``CLIFailure`` (usage) when the file cannot be read, is of another format,
    ///   or has a record that is not a category (naming the field at fault).
    package static func read(_ path: String) throws(CLIFailure) -> [CategoryRecord] {
        let file = try InputFile(path)
        let (data, name) = (file.data, file.name)
        let codec = JSONCodec()
        let document: Document
        do throws(RPCError) {
            if data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "[") {
                return try codec.decode([CategoryRecord].self, from: Array(data))
            }
            document = try codec.decode(Document.self, from: Array(data))
        } catch {
            throw .usage("\(name) is not a category export: \(error.message)")
        }
        if let format = document.format, format != CategoryExport.formatName {
            throw .usage("\(name) is a '\(format)' document, not \(CategoryExport.formatName)")
        }
        return document.categories
    }

    /// An export document, read without its `exportedAt`.
    private struct Document: Decodable {
        var format: String?
        var categories: [CategoryRecord]
    }
}
