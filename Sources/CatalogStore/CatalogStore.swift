import CatalogAPI

/// Where the catalog lives. Every write is one transaction: it happens completely or not at
/// all, and afterwards positions are dense (0..n-1), slugs unique, no item names a missing
/// category and every `itemCount` equals the truth.
///
/// The service validates and normalizes field formats (names, slugs, colours, icons, page
/// sizes) before calling; the store enforces everything that depends on stored data
/// (existence, uniqueness, revisions, delete and merge rules) inside its transaction.
///
/// The point reads, `category(id:)` and `item(id:)`, are lookups by primary key. The services
/// start them on the connection's event loop (`ExecutionPolicy.inline`), so they must not block
/// for longer than such a lookup takes; a store that answers them without suspending conforms
/// to `SynchronousPointReads` too.
public protocol CatalogStore: Sendable {
    // MARK: Categories

    func listCategories(_ query: CategoryQuery) async throws(CatalogError) -> [Category]
    /// NOT_FOUND when missing.
    func category(id: Int64) async throws(CatalogError) -> Category
    /// Appends at the end; the colour defaults to the palette colour at the new position modulo 12.
    func createCategory(_ draft: CategoryDraft) async throws(CatalogError) -> Category
    func updateCategory(id: Int64, _ changes: CategoryChanges, expectedRevision: Int64?) async throws(CatalogError) -> Category
    func deleteCategory(_ request: CategoryDeletion) async throws(CatalogError) -> DeleteCategoryResponse
    /// Returns every category in the new order; ABORTED `revisionMismatch` when
    /// `expectedRevision` differs from the category's.
    func moveCategory(id: Int64, to target: MoveTarget, expectedRevision: Int64?) async throws(CatalogError) -> [Category]
    func mergeCategories(sourceIDs: [Int64], into targetID: Int64, dryRun: Bool) async throws(CatalogError) -> MergeCategoriesResponse
    /// Returns how many items changed (or would change, with `dryRun`). `nil` unassigns.
    func assignItems(_ itemIDs: [Int64], to categoryID: Int64?, dryRun: Bool) async throws(CatalogError) -> Int
    /// Moves every item of `from` to `to`; returns how many moved.
    func moveItems(from: Int64, to: Int64) async throws(CatalogError) -> Int
    func stats() async throws(CatalogError) -> CategoryStats
    /// Every category in position order.
    func exportCategories() async throws(CatalogError) -> [CategoryRecord]
    func importCategories(_ records: [CategoryImport], mode: ImportMode, dryRun: Bool) async throws(CatalogError) -> ImportCategoriesResponse

    // MARK: Items

    func listItems(_ query: ItemQuery) async throws(CatalogError) -> ListItemsResponse
    /// NOT_FOUND when missing.
    func item(id: Int64) async throws(CatalogError) -> Item
    /// NOT_FOUND (with the category's id) when `categoryId` names a missing category.
    func createItem(_ draft: ItemDraft) async throws(CatalogError) -> Item
    func updateItem(id: Int64, _ changes: ItemChanges) async throws(CatalogError) -> Item
    func deleteItem(id: Int64) async throws(CatalogError)
    /// Creates every draft in one transaction, with consecutive ids in order, at one catalog
    /// revision; or none: the first draft naming a missing category fails the whole import with
    /// NOT_FOUND carrying `details.index`. No drafts: nothing is written (`created: 0`, the
    /// current revision).
    func importItems(_ drafts: [ItemDraft]) async throws(CatalogError) -> ImportItemsResponse
}

extension CatalogStore {
    /// Moves a category whatever its revision.
    public func moveCategory(id: Int64, to target: MoveTarget) async throws(CatalogError) -> [Category] {
        try await moveCategory(id: id, to: target, expectedRevision: nil)
    }
}
