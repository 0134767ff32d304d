import CatalogKit
import Testing

// The error-handling idioms of the documentation, written exactly as documented, each in a
// function that throws untyped errors as most callers' functions do. Over a typed
// `throws(RPCError)`, `catch … where` with `&&` or `??` in the clause crashes the Swift 6.3
// compiler; this file keeps the documented forms building against the client's API.

/// The id of the category that holds the name "Books", as `RPCError.reason` documents it.
private func holderOfBooks(_ catalog: CatalogClient) async throws -> JSONValue? {
    var existing: JSONValue?
    do {
        _ = try await catalog.categories.create(name: "Books")
    } catch let error as RPCError where error.reason == "duplicateName" {
        existing = error.details["id"]   // the category that holds the name
    }
    return existing
}

/// The same, as `CatalogClient` documents it.
private func takenBy(_ catalog: CatalogClient) async throws -> Int64 {
    var taken: Int64 = 0
    do {
        _ = try await catalog.categories.create(name: "Books")
    } catch let error as RPCError where error.code == .alreadyExists && error.reason == "duplicateName" {
        print("taken by category \(error.details["id"]?.int64Value ?? 0)")
        taken = error.details["id"]?.int64Value ?? 0
    }
    return taken
}

/// Category 999, caught only when it is a duplicate name: NOT_FOUND goes on to the caller.
private func unmatched(_ catalog: CatalogClient) async throws {
    do {
        _ = try await catalog.categories.get(id: 999)
    } catch let error as RPCError where error.code == .alreadyExists && error.reason == "duplicateName" {
        Issue.record("NOT_FOUND matched a clause for ALREADY_EXISTS: \(error)")
    }
}

/// The reason a watch of a filter that does not exist ends with.
private func watchEndReason(_ catalog: CatalogClient) async throws -> String? {
    var reason: String?
    do {
        for try await event in catalog.filters.watch("nowhere") {
            Issue.record("an event of a filter that does not exist: \(event)")
        }
    } catch let error as RPCError where error.code == .notFound && error.reason != nil {
        reason = error.reason ?? "none"
    }
    return reason
}

@Suite("The documented error-handling idioms build and work")
struct DocumentedIdiomTests {
    @Test("catch let error as RPCError where …: the clause sees the reason and details")
    func matchedClauses() async throws {
        try await withConnectedClient { catalog in
            let books = try await catalog.categories.create(name: "Books")
            let holder = try await holderOfBooks(catalog)
            let taken = try await takenBy(catalog)
            #expect(holder?.intValue == Int(books.id))
            #expect(taken == Int(books.id))
        }
    }

    @Test("an error the clause does not match goes on to the caller")
    func unmatchedErrorPropagates() async throws {
        try await withConnectedClient { catalog in
            let error = try await #require(throws: RPCError.self) { try await unmatched(catalog) }
            #expect(error.code == .notFound)
        }
    }

    @Test("for try await over a watch, caught the same way")
    func watchIdiom() async throws {
        try await withConnectedClient { catalog in
            let reason = try await watchEndReason(catalog)
            #expect(reason == "unknownFilter")
        }
    }
}
