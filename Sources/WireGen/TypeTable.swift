/// What a name used as a field's type stands for.
enum NamedKind: Equatable {
    case message
    /// A string enum of the spec.
    case enumeration(isOpen: Bool)
    /// A hand-written `RawRepresentable<String>` type.
    case externString
}

/// Every type of a spec by qualified name (`CategoryStats.Entry`), and how a name written in
/// a message resolves: from the innermost enclosing message outwards, as in Swift.
struct TypeTable {
    private var kinds: [String: NamedKind] = [:]

    init(_ spec: WireSpec) {
        for name in spec.externStrings { kinds[name] = .externString }
        for file in spec.files {
            for declaration in file.declarations { add(declaration, scope: []) }
        }
    }

    private mutating func add(_ declaration: Declaration, scope: [String]) {
        let qualified = (scope + [declaration.name]).joined(separator: ".")
        switch declaration {
        case .message(let message):
            kinds[qualified] = .message
            for nested in message.nested { add(nested, scope: scope + [message.name]) }
        case .enumeration(let enumeration):
            kinds[qualified] = .enumeration(isOpen: enumeration.isOpen)
        }
    }

    /// Whether a type of this qualified name is declared.
    func contains(_ qualified: String) -> Bool { kinds[qualified] != nil }

    /// The kind of `name` written inside the messages `scope` (outermost first).
    func kind(of name: String, in scope: [String]) -> NamedKind? {
        for depth in stride(from: scope.count, through: 0, by: -1) {
            if let kind = kinds[(scope.prefix(depth) + [name]).joined(separator: ".")] { return kind }
        }
        return nil
    }
}

/// Checks a parsed spec: every type resolves, no name is declared twice, modifiers fit their
/// field's type.
struct WireChecker {
    let spec: WireSpec
    private let table: TypeTable

    init(spec: WireSpec) {
        self.spec = spec
        table = TypeTable(spec)
    }

    func check() throws(WireParser.Failure) {
        var seen: Set<String> = spec.externStrings
        for file in spec.files {
            for declaration in file.declarations { try check(declaration, scope: [], file: file.name, seen: &seen) }
        }
    }

    private func check(_ declaration: Declaration, scope: [String], file: String, seen: inout Set<String>) throws(WireParser.Failure) {
        let qualified = (scope + [declaration.name]).joined(separator: ".")
        guard seen.insert(qualified).inserted else { throw failure(file, "\(qualified) is declared twice") }
        guard case .message(let message) = declaration else { return }
        guard message.fields.count <= 64 else { throw failure(file, "\(qualified) has more than 64 fields") }
        let inner = scope + [message.name]
        for field in message.fields {
            let base = field.type.innermost
            if case .named(let name) = base, table.kind(of: name, in: inner) == nil {
                throw failure(file, "\(qualified).\(field.name): no type named \(name)")
            }
            if field.pattern != nil, base != .string {
                throw failure(file, "\(qualified).\(field.name): `pattern` is for strings")
            }
            if field.minimum != nil || field.maximum != nil, ![.int, .int64, .double].contains(base) {
                throw failure(file, "\(qualified).\(field.name): `minimum` and `maximum` are for numbers")
            }
            if field.knownOnly {
                guard case .named(let name) = base, table.kind(of: name, in: inner) == .enumeration(isOpen: true) else {
                    throw failure(file, "\(qualified).\(field.name): `known` is for open enums")
                }
            }
            if case .update = field.type, field.isOptional {
                throw failure(file, "\(qualified).\(field.name): a FieldUpdate is never optional")
            }
        }
        for nested in message.nested { try check(nested, scope: inner, file: file, seen: &seen) }
    }

    private func failure(_ file: String, _ message: String) -> WireParser.Failure {
        WireParser.Failure(file: file, line: 0, message: message)
    }
}

extension FieldType {
    /// The type of the values inside arrays and updates.
    var innermost: FieldType {
        switch self {
        case .array(let element), .update(let element): element.innermost
        default: self
        }
    }
}
