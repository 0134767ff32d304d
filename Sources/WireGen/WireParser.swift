/// Reads `.wire` files: one declaration per message, line by line.
///
/// ```
/// /// `#RRGGBB`.
/// pattern color = "^#[0-9A-Fa-f]{6}$"
/// extern ServingStatus: String
///
/// /// A category of catalog items.
/// message Category: Identifiable {
///     id: Int64
///     color: String pattern color
///     icon: String?
///     position: Int minimum 0
///     message Nested { ... }
/// }
///
/// enum Sort { position, name }       // closed; `open enum` keeps unknown values
/// ```
///
/// A field is `name: Type` with `?` for an optional, then modifiers: `pattern NAME|"regex"`,
/// `minimum N`, `maximum N`, `constant EXPR`, `default EXPR`, `known`. Types: `String`, `Int`,
/// `Int64`, `Bool`, `Double`, `Date`, `[T]`, `FieldUpdate<T>`, and the messages, enums and
/// externs of the spec. `///` lines document the next declaration, field or case; `//` lines
/// are comments.
package struct WireParser {
    /// A mistake in a `.wire` file, with where it is.
    package struct Failure: Error, CustomStringConvertible, Equatable {
        package var file: String
        package var line: Int
        package var message: String
        package var description: String { "\(file).wire:\(line): \(message)" }
    }

    private var spec = WireSpec()

    package init() {}

    /// Adds the declarations of one file; `name` is its name without `.wire`.
    package mutating func parse(_ text: String, name: String) throws(Failure) {
        var reader = FileReader(name: name, lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        var declarations: [Declaration] = []
        while let line = try reader.nextLine() {
            if let declaration = try parseTopLevel(line, &reader) { declarations.append(declaration) }
        }
        spec.files.append(WireSpec.File(name: name, declarations: declarations))
    }

    /// Everything read, its patterns resolved and its types checked.
    package func finish() throws(Failure) -> WireSpec {
        var spec = spec
        for index in spec.files.indices {
            let name = spec.files[index].name
            spec.files[index].declarations = try spec.files[index].declarations.map { declaration throws(Failure) in
                try resolvePatterns(declaration, file: name)
            }
        }
        try WireChecker(spec: spec).check()
        return spec
    }

    /// The declaration with each field's `pattern NAME` replaced by the named regex, and each
    /// `pattern "regex"` by the regex.
    private func resolvePatterns(_ declaration: Declaration, file: String) throws(Failure) -> Declaration {
        guard case .message(var message) = declaration else { return declaration }
        for index in message.fields.indices {
            guard let token = message.fields[index].pattern else { continue }
            guard let regex = unquoted(token) ?? spec.patterns[token] else {
                throw Failure(file: file, line: 0, message: "\(message.name).\(message.fields[index].name): no pattern named \(token)")
            }
            message.fields[index].pattern = regex
        }
        message.nested = try message.nested.map { nested throws(Failure) in try resolvePatterns(nested, file: file) }
        return .message(message)
    }

    private mutating func parseTopLevel(_ line: Line, _ reader: inout FileReader) throws(Failure) -> Declaration? {
        let tokens = line.tokens
        switch tokens.first {
        case "pattern":
            guard tokens.count == 4, tokens[2] == "=", let regex = unquoted(tokens[3]) else {
                throw reader.failure(line, "expected `pattern NAME = \"regex\"`")
            }
            guard spec.patterns.updateValue(regex, forKey: tokens[1]) == nil else { throw reader.failure(line, "pattern \(tokens[1]) is declared twice") }
            return nil
        case "extern":
            guard tokens.count == 3, tokens[1].hasSuffix(":"), tokens[2] == "String" else {
                throw reader.failure(line, "expected `extern NAME: String`")
            }
            spec.externStrings.insert(String(tokens[1].dropLast()))
            return nil
        default:
            guard let declaration = try parseDeclaration(line, &reader) else {
                throw reader.failure(line, "expected `message`, `enum`, `open enum`, `pattern` or `extern`")
            }
            return declaration
        }
    }

    /// A message or enum starting at `line`, read to its closing brace; `nil` when `line`
    /// starts neither.
    private func parseDeclaration(_ line: Line, _ reader: inout FileReader) throws(Failure) -> Declaration? {
        var tokens = line.tokens
        let isOpen = tokens.first == "open"
        if isOpen { tokens.removeFirst() }
        guard tokens.last == "{", tokens.count >= 3 else { return nil }
        var name = tokens[1]
        var conformances: [String] = []
        if name.hasSuffix(":") {
            name.removeLast()
            conformances = tokens[2..<tokens.count - 1].map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
        } else if tokens.count != 3 {
            throw reader.failure(line, "expected `{` after the name")
        }
        guard isIdentifier(name) else { throw reader.failure(line, "`\(name)` is not a name") }
        switch tokens[0] {
        case "message" where !isOpen:
            return .message(try parseMessage(name, conformances: conformances, doc: line.doc, &reader))
        case "enum":
            guard conformances.isEmpty else { throw reader.failure(line, "an enum adopts nothing more") }
            return .enumeration(try parseEnum(name, isOpen: isOpen, doc: line.doc, &reader))
        default:
            return nil
        }
    }

    private func parseMessage(_ name: String, conformances: [String], doc: [String], _ reader: inout FileReader) throws(Failure) -> Message {
        var message = Message(name: name, doc: doc, conformances: conformances, fields: [], nested: [])
        while let line = try reader.nextLine() {
            if line.tokens == ["}"] {
                guard !message.fields.isEmpty else { throw reader.failure(line, "message \(name) has no fields") }
                return message
            }
            if let nested = try parseDeclaration(line, &reader) {
                message.nested.append(nested)
                continue
            }
            let field = try parseField(line, &reader)
            guard !message.fields.contains(where: { $0.name == field.name }) else {
                throw reader.failure(line, "field \(field.name) is declared twice")
            }
            message.fields.append(field)
        }
        throw reader.failure(nil, "message \(name) is not closed with `}`")
    }

    private func parseField(_ line: Line, _ reader: inout FileReader) throws(Failure) -> Field {
        var tokens = line.tokens[...]
        guard tokens.count >= 2, let first = tokens.popFirst(), first.hasSuffix(":"), isIdentifier(String(first.dropLast())) else {
            throw reader.failure(line, "expected a field `name: Type`, a nested declaration or `}`")
        }
        var typeText = tokens.popFirst()!
        let isOptional = typeText.hasSuffix("?")
        if isOptional { typeText.removeLast() }
        guard let type = fieldType(typeText) else { throw reader.failure(line, "unknown type syntax `\(typeText)`") }
        var field = Field(
            name: String(first.dropLast()), doc: line.doc, type: type, isOptional: isOptional, knownOnly: false)
        while let modifier = tokens.popFirst() {
            if modifier == "known" {
                field.knownOnly = true
                continue
            }
            guard let argument = tokens.popFirst() else { throw reader.failure(line, "`\(modifier)` needs a value") }
            switch modifier {
            case "pattern":
                field.pattern = argument
            case "minimum", "maximum":
                guard Double(argument) != nil else { throw reader.failure(line, "`\(modifier)` needs a number") }
                if modifier == "minimum" { field.minimum = argument } else { field.maximum = argument }
            case "constant": field.constant = argument
            case "default": field.defaultValue = argument
            default: throw reader.failure(line, "unknown modifier `\(modifier)`")
            }
        }
        return field
    }

    private func parseEnum(_ name: String, isOpen: Bool, doc: [String], _ reader: inout FileReader) throws(Failure) -> Enumeration {
        var enumeration = Enumeration(name: name, doc: doc, isOpen: isOpen, cases: [])
        while let line = try reader.nextLine() {
            if line.tokens == ["}"] {
                guard !enumeration.cases.isEmpty else { throw reader.failure(line, "enum \(name) has no cases") }
                return enumeration
            }
            for token in line.tokens {
                let caseName = token.hasSuffix(",") ? String(token.dropLast()) : token
                guard isIdentifier(caseName), caseName != "unknown" else { throw reader.failure(line, "`\(caseName)` cannot be a case") }
                guard !enumeration.cases.contains(where: { $0.name == caseName }) else {
                    throw reader.failure(line, "case \(caseName) is declared twice")
                }
                enumeration.cases.append(.init(name: caseName, doc: line.tokens.count == 1 ? line.doc : []))
            }
        }
        throw reader.failure(nil, "enum \(name) is not closed with `}`")
    }

    private func fieldType(_ text: String) -> FieldType? {
        switch text {
        case "String": return .string
        case "Int": return .int
        case "Int64": return .int64
        case "Bool": return .bool
        case "Double": return .double
        case "Date": return .date
        case "JSONObject": return .jsonObject
        default:
            if text.hasPrefix("["), text.hasSuffix("]") { return fieldType(String(text.dropFirst().dropLast())).map(FieldType.array) }
            if text.hasPrefix("FieldUpdate<"), text.hasSuffix(">") {
                return fieldType(String(text.dropFirst("FieldUpdate<".count).dropLast())).map(FieldType.update)
            }
            return text.split(separator: ".").allSatisfy({ isIdentifier(String($0)) }) ? .named(text) : nil
        }
    }

    private func unquoted(_ token: String) -> String? {
        guard token.count >= 2, token.hasPrefix("\""), token.hasSuffix("\"") else { return nil }
        return String(token.dropFirst().dropLast())
    }
}

func isIdentifier(_ text: String) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
}

/// A line with its tokens and the `///` lines just above it.
struct Line {
    var number: Int
    var tokens: [String]
    var doc: [String]
}

/// The lines of one file, comments set aside.
struct FileReader {
    let name: String
    let lines: [String]
    private var index = 0

    init(name: String, lines: [String]) {
        self.name = name
        self.lines = lines
    }

    /// The next line that declares something, with the doc comment above it.
    mutating func nextLine() throws(WireParser.Failure) -> Line? {
        var doc: [String] = []
        while index < lines.count {
            let text = lines[index].trimmingWhitespace
            index += 1
            if text.hasPrefix("///") {
                let comment = text.dropFirst(3)
                doc.append(String(comment.hasPrefix(" ") ? comment.dropFirst() : comment))
            } else if text.isEmpty {
                doc = []
            } else if !text.hasPrefix("//") {
                return Line(number: index, tokens: try tokens(text), doc: doc)
            }
        }
        return nil
    }

    func failure(_ line: Line?, _ message: String) -> WireParser.Failure {
        WireParser.Failure(file: name, line: line?.number ?? lines.count, message: message)
    }

    /// Words split at white space; a quoted string is one token, kept with its quotes.
    private func tokens(_ text: String) throws(WireParser.Failure) -> [String] {
        var tokens: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character.isWhitespace, !quoted {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !quoted else { throw WireParser.Failure(file: name, line: index, message: "a string is not closed") }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }
}

extension String {
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
