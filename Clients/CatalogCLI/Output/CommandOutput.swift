/// What a command prints, in every form `-o` can ask for.
///
/// ```swift
/// let output = try CommandOutput.item(item, categoryNames: [3: "Formations"])
/// OutputPrinter(console: console, format: .json, headers: true).print(output)
/// ```
package struct CommandOutput: Sendable {
    /// What the human view needs to know about where it goes.
    package struct HumanContext: Sendable {
        /// `-o wide`: every column.
        package var wide: Bool
        /// Headers above tables (not with `--no-headers`).
        package var headers: Bool
        /// The terminal width to fit.
        package var width: Int
        package var style: TextStyle

        package init(wide: Bool, headers: Bool, width: Int, style: TextStyle) {
            self.wide = wide
            self.headers = headers
            self.width = width
            self.style = style
        }
    }

    /// The response message: `-o json` and `-o yaml`.
    package var document: JSONDocument
    /// The records of `-o ndjson`, one per line: the elements of a list, or the document itself.
    package var records: [JSONDocument]
    /// The text of `-o table` and `-o wide`, ending with a newline.
    package var human: @Sendable (HumanContext) -> String

    package init(document: JSONDocument, records: [JSONDocument]? = nil, human: @escaping @Sendable (HumanContext) -> String) {
        self.document = document
        self.records = records ?? [document]
        self.human = human
    }

    /// A result shown to people as one sentence (its control characters escaped: it may
    /// quote names from the server), to programs as `message`.
    package static func sentence<Message: Encodable>(_ sentence: String, message: Message) throws -> CommandOutput {
        CommandOutput(document: try DocumentEncoder().encode(message)) { _ in sentence.terminalSafe + "\n" }
    }
}
