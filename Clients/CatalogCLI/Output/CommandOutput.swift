/// What a command prints, in every form `-o` can ask for.
///
/// ```swift
/// let output = try CommandOutput.item(item, categoryNames: [3: "Formations"])
/// OutputPrinter(console: console, format: .json, headers: true).print(output)
/// ```
public struct CommandOutput: Sendable {
    /// What the human view needs to know about where it goes.
    public struct HumanContext: Sendable {
        /// `-o wide`: every column.
        public var wide: Bool
        /// Headers above tables (not with `--no-headers`).
        public var headers: Bool
        /// The terminal width to fit.
        public var width: Int
        public var style: TextStyle

        public init(wide: Bool, headers: Bool, width: Int, style: TextStyle) {
            self.wide = wide
            self.headers = headers
            self.width = width
            self.style = style
        }
    }

    /// The response message: `-o json` and `-o yaml`.
    public var document: JSONDocument
    /// The records of `-o ndjson`, one per line: the elements of a list, or the document itself.
    public var records: [JSONDocument]
    /// The text of `-o table` and `-o wide`, ending with a newline.
    public var human: @Sendable (HumanContext) -> String

    public init(document: JSONDocument, records: [JSONDocument]? = nil, human: @escaping @Sendable (HumanContext) -> String) {
        self.document = document
        self.records = records ?? [document]
        self.human = human
    }

    /// A result shown to people as one sentence (its control characters escaped: it may
    /// quote names from the server), to programs as `message`.
    public static func sentence<Message: Encodable>(_ sentence: String, message: Message) throws -> CommandOutput {
        CommandOutput(document: try DocumentEncoder().encode(message)) { _ in sentence.terminalSafe + "\n" }
    }
}
