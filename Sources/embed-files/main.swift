import Foundation

// embed-files OUTPUT FILE…: writes OUTPUT, a Swift source that defines
// `EmbeddedFiles.all`, each FILE's name and text as a raw string literal. Run by the
// EmbedConsoleFiles build plugin; the files are UTF-8 text (HTML, CSS, JavaScript, SVG).

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: embed-files OUTPUT FILE...\n".utf8))
    exit(2)
}

/// The `#`s a raw string needs so that no `"` followed by them occurs in `text`.
func delimiter(for text: String) -> String {
    var longest = 0
    var run = -1
    for character in text.unicodeScalars {
        if character == "\"" {
            run = 0
        } else if character == "#", run >= 0 {
            run += 1
            longest = max(longest, run)
        } else {
            run = -1
        }
    }
    return String(repeating: "#", count: longest + 1)
}

var source = """
    // Written by embed-files at build time from the target's Assets folder. Do not edit.

    enum EmbeddedFiles {
        static let all: [(name: String, text: String)] = [

    """
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    guard let text = String(data: try Data(contentsOf: url), encoding: .utf8), !text.contains("\r") else {
        FileHandle.standardError.write(Data("embed-files: \(path) is not UTF-8 text with LF line ends\n".utf8))
        exit(1)
    }
    let hashes = delimiter(for: text)
    source += "        (\"\(url.lastPathComponent)\", \(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)),\n"
}
source += "    ]\n}\n"
// Written only when it changed: SwiftPM runs this again whenever it relinks the tool, and an
// untouched source spares compiling the target again and relinking what links it.
let outputURL = URL(fileURLWithPath: output)
let written = Data(source.utf8)
if (try? Data(contentsOf: outputURL)) != written {
    try written.write(to: outputURL, options: .atomic)
}
