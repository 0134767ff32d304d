import CatalogClient
import Testing

// The error-handling idioms of the documentation, written exactly as documented, in functions
// that throw untyped errors as most callers' do. Some shapes of `catch … where` over a typed
// `throws(RPCError)` crash the Swift 6.3 compiler; this file keeps them building.

@Suite("The documented error-handling idioms build and work")
struct DocumentedIdiomTests {
    @Test("catch let error as RPCError where error.reason == …, details at hand")
    func duplicateNameIdiom() async throws {
        try await withConnectedClient { catalog in
            let books = try await catalog.categories.create(name: "Books")
            var existing: JSONValue?
            do {
                _ = try await catalog.categories.create(name: "Books")
            } catch let error as RPCError where error.reason == "duplicateName" {
                existing = error.details["id"]   // the category that holds the name
            }
            #expect(existing?.intValue == Int(books.id))
        }
    }

    @Test("catch let error as RPCError where code && reason, with a default for a missing detail")
    func codeAndReasonIdiom() async throws {
        try await withConnectedClient { catalog in
            let books = try await catalog.categories.create(name: "Books")
            var taken = 0
            do {
                _ = try await catalog.categories.create(name: "Books")
            } catch let error as RPCError where error.code == .alreadyExists && error.reason == "duplicateName" {
                taken = error.details["id"]?.intValue ?? 0
            }
            #expect(taken == Int(books.id))
        }
    }

    @Test("an error the clause does not match goes on to the caller")
    func unmatchedErrorPropagates() async throws {
        try await withConnectedClient { catalog in
            let error = try await #require(throws: RPCError.self) {
                do {
                    _ = try await catalog.categories.get(id: 999)
                } catch let error as RPCError where error.code == .alreadyExists && error.reason == "duplicateName" {
                    Issue.record("NOT_FOUND matched a clause for ALREADY_EXISTS: \(error)")
                }
            }
            #expect(error.code == .notFound)
        }
    }
}

extension DocumentedIdiomTests {
    @Test("for try await over a watch, caught the same way")
    func watchIdiom() async throws {
        try await withConnectedClient { catalog in
            var reason: String?
            do {
                for try await event in catalog.filters.watch("nowhere") {
                    Issue.record("an event of a filter that does not exist: \(event)")
                }
            } catch let error as RPCError where error.code == .notFound && error.reason != nil {
                reason = error.reason ?? "none"
            }
            #expect(reason == "unknownFilter")
        }
    }
}
