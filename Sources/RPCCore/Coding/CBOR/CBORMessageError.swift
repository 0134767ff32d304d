/// Why a message's CBOR does not decode in its generated reader: the bytes are not acceptable
/// CBOR, or a field is missing, of the wrong kind or invalid. The path is filled in as the
/// error leaves each field and element, so reading a message costs nothing for it.
package struct CBORMessageError: Error {
    package enum Problem: Sendable {
        case malformed(CBORError)
        case missing
        /// The field holds something else than what is named, e.g. `an integer`.
        case wrongType(expected: String)
        /// `null` where the named kind of value is required.
        case null(expected: String)
        /// The value is of the right kind but not acceptable, for the reason given.
        case invalid(String)
    }

    package var problem: Problem
    /// From the message down to the field at fault.
    package var path: [FieldPathComponent] = []

    package init(_ problem: Problem) {
        self.problem = problem
    }

    /// This error, for the member `key` of the enclosing message.
    package func within(_ key: StaticString) -> Self {
        var error = self
        error.path.insert(.key(key.description), at: 0)
        return error
    }

    /// This error, for the element `index` of the enclosing array.
    package func at(_ index: Int) -> Self {
        var error = self
        error.path.insert(.index(index), at: 0)
        return error
    }

    /// This error for a value that is an array's element or the whole message, where `Codable`
    /// reads `null` as a value of the wrong kind rather than as a missing one.
    package var asElement: Self {
        guard path.isEmpty, case .null(let expected) = problem else { return self }
        return CBORMessageError(.wrongType(expected: expected))
    }

    /// The INVALID_ARGUMENT a server answers, worded as the `Codable` path words it.
    var rpcError: RPCError {
        let error = asElement
        let (problem, path) = (error.problem, error.path)
        let explanation: String
        switch problem {
        case .malformed(let error):
            return RPCError(.invalidArgument, "message is not valid CBOR: \(error)", detail: ErrorDetail(reason: "invalidMessage"))
        case .missing: explanation = "is required"
        case .wrongType(let expected): explanation = "must be \(expected)"
        case .null(let expected): explanation = "must be \(expected), not null"
        case .invalid(let reason): explanation = "is invalid: \(reason)"
        }
        let field = FieldPathComponent.text(path)
        return RPCError(.invalidArgument, "field '\(field)' \(explanation)", detail: ErrorDetail(reason: "invalidField", field: field))
    }
}

/// A step of a field path: a member of a message or an element of an array.
package enum FieldPathComponent: Hashable, Sendable {
    case key(String)
    case index(Int)

    /// `items[2].price.amount`; `<message>` for the message itself.
    static func text(_ path: [FieldPathComponent]) -> String {
        var text = ""
        for component in path {
            switch component {
            case .index(let index): text += "[\(index)]"
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            }
        }
        return text.isEmpty ? "<message>" : text
    }
}
