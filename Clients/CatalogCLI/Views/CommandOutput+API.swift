import CatalogKit

extension CommandOutput {
    /// One line per method of the contract: its path, streaming kind and least role.
    package static func methodList(_ methods: [ContractDocument.Method]) throws -> CommandOutput {
        let summaries = methods.map(MethodSummary.init)
        let encoder = DocumentEncoder()
        return CommandOutput(
            document: .object([JSONDocument.Member("methods", .array(try summaries.map { try encoder.encode($0) }))]),
            records: try summaries.map { try encoder.encode($0) }
        ) { context in
            var table = Table(columns: [.init("METHOD"), .init("KIND"), .init("ROLE")])
            for method in summaries {
                table.append([Table.Cell(method.path), Table.Cell(method.kind), Table.Cell(method.role)])
            }
            return table.render(width: context.width, headers: context.headers, style: context.style)
        }
    }

    /// Methods with their content types and request and response schemas: the contract's
    /// method objects for programs, an outline of the messages' fields for people.
    package static func methodDescriptions(_ methods: [ContractDocument.Method]) throws -> CommandOutput {
        let encoder = DocumentEncoder()
        let documents = try methods.map { method in
            try encoder.encode(MethodSummary(method)).appending([
                JSONDocument.Member("contentTypes", .array(method.contentTypes.map { JSONDocument.string($0) })),
                JSONDocument.Member("request", JSONDocument(method.request)),
                JSONDocument.Member("response", JSONDocument(method.response)),
            ])
        }
        return CommandOutput(document: documents.count == 1 ? documents[0] : .array(documents), records: documents) { context in
            methods.map { method in
                let summary = MethodSummary(method)
                let path: String = context.style.bold(summary.path.terminalSafe)
                let heading = "\(path)   \(summary.kind) · role \(summary.role.terminalSafe)\n"
                let contentTypes = "content types: \(method.contentTypes.joined(separator: ", ").terminalSafe)\n"
                return heading + contentTypes
                    + "request:\n" + SchemaOutline(method.request).render(context: context)
                    + "response:\n" + SchemaOutline(method.response).render(context: context)
            }.joined(separator: "\n")
        }
    }
}

/// What `api list` says about a method.
private struct MethodSummary: Encodable {
    var path: String
    var kind: String
    var role: String

    init(_ method: ContractDocument.Method) {
        path = method.path
        kind = switch (method.clientStreaming, method.serverStreaming) {
        case (false, false): "unary"
        case (false, true): "server streaming"
        case (true, false): "client streaming"
        case (true, true): "bidirectional streaming"
        }
        role = method.role
    }
}

extension JSONDocument {
    /// This object with `members` added at the end.
    fileprivate func appending(_ members: [Member]) -> JSONDocument {
        guard case .object(let existing) = self else { return self }
        return .object(existing + members)
    }
}
