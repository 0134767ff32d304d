import CatalogAPI
import Foundation
import Logging
import RPCCore
import RPCHTTP2
import Synchronization
import Testing

/// Text a malicious server puts in every string it sends: escape sequences that retitle the
/// terminal (OSC 2 … BEL), clear the screen (CSI 2J) and turn text red, the C1 form of CSI
/// (U+009B), DEL, a carriage return, a tab and a line break.
enum HostileText {
    static let text = "Evil\u{1B}]2;pwned\u{07}\u{1B}[2J\u{1B}[31m\u{9B}1m\u{7F}\r\tend\nline"
    /// How `catalog` shows it to people: every control character as its code.
    static let shown = #"Evil\u{1B}]2;pwned\u{07}\u{1B}[2J\u{1B}[31m\u{9B}1m\u{7F}\u{0D}\u{09}end\u{0A}line"#

    /// The scalars of `output` that must never reach a terminal: any control character (C0,
    /// DEL, C1) but a line break.
    static func controlCharacters(in output: String) -> [String] {
        output.unicodeScalars.filter { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
            .map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }
}

/// Runs a server that answers with `HostileText.text` in every text it can, while `body` runs
/// with its `127.0.0.1:port`:
/// - Categories/List and Catalog/ListItems: a category and an item named with it (and the
///   next page's token); Catalog/GetItem: that item, and Catalog/DeleteItem deletes it;
/// - Health/Check: it as the status;
/// - Categories/Get: NOT_FOUND with it as message, reason, field and a detail;
/// - Filters/Get: a filter titled with it, with an option titled with it, selected;
/// - Filters/Watch `hostile`: that filter's snapshot, then UNAVAILABLE with it as message; the
///   resumed call (`sinceRevision` set) ends NOT_FOUND like Categories/Get;
/// - Filters/Watch `garbage`: a message that is not JSON;
/// - Categories/Stats: `{}`, which is no `CategoryStats`.
func withHostileServer<T>(_ body: (_ address: String) async throws -> T) async throws -> T {
    let date = Date(timeIntervalSince1970: 1_769_162_400)
    let hostile = HostileText.text
    let category = Category(
        id: 1, name: hostile, slug: hostile, color: "#9C27B0", icon: hostile, position: 0, isDefault: false, itemCount: 1,
        revision: 1, createdAt: date, updatedAt: date)
    let item = Item(id: 1, title: hostile, summary: hostile, level: hostile, duration: hostile, categoryId: 1, createdAt: date, updatedAt: date)
    let filter = FilterState(
        filterId: "hostile", title: hostile, options: [FilterOption(id: 1, title: hostile)], selectedId: 1, revision: 1, updatedAt: date)
    let notFound = RPCError(
        .notFound, hostile, detail: ErrorDetail(reason: hostile, field: hostile, details: [hostile: .string(hostile)]))

    var router = Router()
    router.register(CategoriesService.list, .unary { _, _ in CategoryList(categories: [category]) })
    router.register(CatalogService.listItems, .unary { _, _ in ListItemsResponse(items: [item], nextPageToken: hostile, totalCount: 2) })
    router.register(CatalogService.getItem, .unary { _, _ in item })
    router.register(CatalogService.deleteItem, .unary { _, _ in Empty() })
    router.register(Health.check, .unary { _, _ in HealthCheckResponse(status: ServingStatus(rawValue: hostile)) })
    router.register(CategoriesService.get, .unary { _, _ -> Category in throw notFound })
    router.register(FiltersService.get, .unary { _, _ in filter })
    router.register(UnaryMethod<Empty, Empty>(service: CategoriesService.name, method: "Stats"), .unary { _, _ in Empty() })
    router.register(FiltersService.watch, .serverStreaming(.inline, source: { request, _, _ -> any ResponseSource in
        let codec = JSONCodec.shared
        switch (request.filterId, request.sinceRevision) {
        case ("garbage", _):
            return ScriptedSource([.message(Array("not JSON".utf8)), .end(.ok())])
        case (_, nil):
            return ScriptedSource([
                .message(try codec.encode(FilterEvent(kind: .snapshot, revision: 1, state: filter))),
                .message(try codec.encode(FilterEvent(kind: .synced, revision: 1))),
                .end(ResponseTrailers(error: RPCError(.unavailable, hostile))),
            ])
        case (_, .some):
            return ScriptedSource([.end(ResponseTrailers(error: notFound))])
        }
    }))
    return try await withServer(router, body)
}

/// A stream that answers what it was given, in order, as fast as the client reads it.
private final class ScriptedSource: ResponseSource {
    private let pulls: Mutex<[ResponsePull]>

    init(_ pulls: [ResponsePull]) {
        self.pulls = Mutex(pulls)
    }

    func next() -> ResponsePull {
        pulls.withLock { $0.isEmpty ? .idle : $0.removeFirst() }
    }

    func streamClosed() {}
}
