import Foundation

/// The request message of `catalog call -d`: inline JSON, `@path` for a file, `@-` for
/// standard input; `{}` when there is none.
package enum RequestBody {
    /// The JSON bytes that `argument` names, checked to be one JSON value.
    ///
    /// - Throws: ``CLIFailure`` (usage) for a file that cannot be read or text that is not JSON.
    package static func read(_ argument: String?) throws(CLIFailure) -> [UInt8] {
        guard let argument else { return Array("{}".utf8) }
        let bytes: [UInt8]
        let source: String
        if argument == "@-" {
            bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
            source = "standard input"
        } else if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            do {
                bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw .usage("cannot read the request from \(path): \(error.localizedDescription)")
            }
            source = path
        } else {
            bytes = Array(argument.utf8)
            source = "-d"
        }
        if bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return Array("{}".utf8) }
        do {
            _ = try JSONDocument(parsing: bytes)
        } catch {
            throw .usage("the request in \(source) is not valid JSON: \(error)")
        }
        return bytes
    }
}
