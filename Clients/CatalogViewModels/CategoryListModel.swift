import CatalogKit
import Observation

/// The list of categories of a category-management screen, and the actions on it.
///
/// ``load()`` fetches the list with the model's ``query``, ``sort``, ``descending`` and
/// ``hideEmpty``, which a view changes and then loads again (e.g. in `.task(id: query)`).
///
/// Every action asks the server and shows what it answered, never a guess. It returns the
/// server's answer, or `nil` when the server refused; the refusal is then in ``lastError``
/// (until the next action succeeds or ``dismissError()``) and the list is left as it was.
/// When the list shows every category in position order (no query, no `hideEmpty`, sorted
/// by position, ascending), an answer that carries the categories it changed is shown as it
/// is: the created category at the end, the renamed one in place, the new order of a move.
/// Otherwise, and after a delete or a merge (which shift the positions of the others and move
/// items between categories), the list is loaded again.
///
/// ```swift
/// let list = CategoryListModel(categories: catalog.categories)
/// await list.load()
/// if let books = await list.create(name: "Books", icon: "book") {
///     await list.move(id: books.id, direction: .up)
/// }
/// ```
@MainActor
@Observable
public final class CategoryListModel {
    /// What the list shows.
    public private(set) var state: LoadState = .loading
    /// Only the categories whose name contains this, case-insensitive; empty for all.
    public var query = ""
    /// The order of the list.
    public var sort: CategorySort = .position
    /// Whether ``sort`` is reversed.
    public var descending = false
    /// Whether the categories without items are left out.
    public var hideEmpty = false
    /// Why the last action the server refused was refused (e.g. ALREADY_EXISTS
    /// `duplicateName`, ABORTED `revisionMismatch`, FAILED_PRECONDITION `categoryNotEmpty`);
    /// `nil` once an action succeeds or after ``dismissError()``.
    public private(set) var lastError: RPCError?

    @ObservationIgnored private let categoriesClient: any CategoriesClientProtocol
    /// Bumped by each load and each change of ``state``: a load whose answer comes after a
    /// later one (or after an action's answer) is not shown.
    @ObservationIgnored private var generation = 0

    /// A model of the list, `.loading` until ``load()`` answers.
    ///
    /// - Parameter categories: The categories' client, e.g. `catalog.categories`, or a fake.
    public init(categories: some CategoriesClientProtocol) {
        self.categoriesClient = categories
    }

    /// The categories shown; empty unless ``state`` is `.loaded`.
    public var categories: [Category] {
        if case .loaded(let categories) = state { categories } else { [] }
    }

    /// Fetches the list with the current ``query``, ``sort``, ``descending`` and ``hideEmpty``.
    ///
    /// ``state`` becomes `.loading` only when no list is shown (the first load, or after a
    /// failure): a list shown stays until the answer replaces it. A failure becomes `.failed`.
    public func load() async {
        generation += 1
        let generation = generation
        switch state {
        case .loaded, .empty: break
        case .loading, .failed: state = .loading
        }
        let query = query.isEmpty ? nil : query
        let (sort, descending, hideEmpty) = (sort, descending, hideEmpty)
        let result: Result<[Category], RPCError>
        do {
            result = .success(
                try await categoriesClient.list(query: query, hideEmpty: hideEmpty, sort: sort, descending: descending, options: .defaults))
        } catch {
            result = .failure(RPCError.from(error))
        }
        guard generation == self.generation else { return }
        switch result {
        case .success(let categories): show(categories)
        case .failure(let error): state = .failed(error)
        }
    }

    /// Creates a category at the end of the order.
    ///
    /// - Parameters:
    ///   - name: 1 to 50 characters, not taken by another category.
    ///   - color: `#RRGGBB`; the palette's colour for its position when `nil`.
    ///   - icon: A symbol name of `[a-z0-9.]`.
    /// - Returns: The created category, or `nil` when the server refused (see ``lastError``).
    @discardableResult
    public func create(name: String, color: String? = nil, icon: String? = nil) async -> Category? {
        guard let created = await perform({ try await $0.create(name: name, color: color, icon: icon, options: .defaults) }) else {
            return nil
        }
        if showsEveryCategoryInOrder {
            show(categories + [created])
        } else {
            await load()
        }
        return created
    }

    /// Renames category `id`, provided it is still as shown: a category changed elsewhere since
    /// the list was loaded is refused with ABORTED `revisionMismatch`, and the list is loaded
    /// again to show it as it is now. A category the list does not show is renamed unchecked.
    ///
    /// - Parameters:
    ///   - id: The category.
    ///   - name: Its new name, 1 to 50 characters, not taken by another category.
    /// - Returns: The renamed category, or `nil` when the server refused (see ``lastError``).
    @discardableResult
    public func rename(id: Int64, to name: String) async -> Category? {
        let shownRevision = categories.first { $0.id == id }?.revision
        let renamed = await perform {
            try await $0.update(
                id: id, name: name, color: nil, icon: nil, isDefault: nil, expectedRevision: shownRevision, options: .defaults)
        }
        guard let renamed else {
            if lastError?.reason == "revisionMismatch" { await load() }
            return nil
        }
        if showsEveryCategoryInOrder, let index = categories.firstIndex(where: { $0.id == id }) {
            var categories = categories
            categories[index] = renamed
            show(categories)
        } else {
            await load()
        }
        return renamed
    }

    /// Deletes category `id`, then loads the list again.
    ///
    /// - Parameters:
    ///   - id: The category.
    ///   - items: What becomes of its items: `.reject` (refused with FAILED_PRECONDITION
    ///     `categoryNotEmpty` when it has any), `.delete`, `.move` (to `moveTo`) or `.unassign`.
    ///   - moveTo: The category that receives the items with `.move`.
    /// - Returns: What happened to the items, or `nil` when the server refused (see ``lastError``).
    @discardableResult
    public func delete(id: Int64, items: DeleteItemsPolicy = .reject, moveTo: Int64? = nil) async -> DeleteCategoryResponse? {
        let report = await perform {
            try await $0.delete(id: id, items: items, moveTo: moveTo, expectedRevision: nil, dryRun: false, options: .defaults)
        }
        if report != nil { await load() }
        return report
    }

    /// Moves category `id` one place up or down, and shows the new order the server answers.
    ///
    /// - Parameters:
    ///   - id: The category.
    ///   - direction: `.up` (towards the first) or `.down`.
    /// - Returns: Every category in the new order, or `nil` when the server refused (see
    ///   ``lastError``; FAILED_PRECONDITION `alreadyFirst` or `alreadyLast` at either end).
    @discardableResult
    public func move(id: Int64, direction: MoveDirection) async -> [Category]? {
        guard let order = await perform({ try await $0.move(id: id, direction: direction, expectedRevision: nil, options: .defaults) }) else {
            return nil
        }
        if showsEveryCategoryInOrder {
            show(order)
        } else {
            await load()
        }
        return order
    }

    /// Moves the items of `sourceIds` into `targetId` and deletes the sources, then loads the
    /// list again.
    ///
    /// - Parameters:
    ///   - sourceIds: The categories merged away; no default category.
    ///   - targetId: The category that receives their items.
    /// - Returns: The target as it is now, the items moved and the ids deleted, or `nil` when
    ///   the server refused (see ``lastError``).
    @discardableResult
    public func merge(sourceIds: [Int64], into targetId: Int64) async -> MergeCategoriesResponse? {
        let response = await perform { try await $0.merge(sourceIds: sourceIds, into: targetId, dryRun: false, options: .defaults) }
        if response != nil { await load() }
        return response
    }

    /// Forgets ``lastError``, e.g. when the view's alert is dismissed.
    public func dismissError() {
        lastError = nil
    }

    /// Whether the list is every category in position order, as the answers of create, update
    /// and move give them, so that they can be shown without a load.
    private var showsEveryCategoryInOrder: Bool {
        query.isEmpty && !hideEmpty && sort == .position && !descending && state != .loading && !isFailed
    }

    private var isFailed: Bool {
        if case .failed = state { true } else { false }
    }

    /// Runs a write; its answer, or `nil` with the refusal in ``lastError``.
    private func perform<Answer: Sendable>(
        _ write: @Sendable (any CategoriesClientProtocol) async throws -> Answer
    ) async -> Answer? {
        do {
            let answer = try await write(categoriesClient)
            lastError = nil
            return answer
        } catch {
            lastError = RPCError.from(error)
            return nil
        }
    }

    /// Shows `categories`, and makes any load still under way drop its answer.
    private func show(_ categories: [Category]) {
        generation += 1
        state = categories.isEmpty ? .empty : .loaded(categories)
    }
}
