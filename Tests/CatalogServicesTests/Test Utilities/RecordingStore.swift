import CatalogAPI
import CatalogServices
import CatalogStore
import Foundation
import Synchronization

/// A `CatalogStore` that records every call and answers with fixed sample values.
///
/// It holds no catalog and applies no rule: it only lets service tests see what reaches the
/// store (and that invalid requests never do). Its point reads suspend, as a networked
/// database's do; `ImmediateRecordingStore` answers them at once.
class RecordingStore: CatalogStore, @unchecked Sendable {
    /// One call to the store, with its arguments.
    enum Call: Hashable, Sendable {
        case listCategories(CategoryQuery)
        case category(id: Int64)
        case createCategory(CategoryDraft)
        case updateCategory(id: Int64, CategoryChanges, expectedRevision: Int64?)
        case deleteCategory(CategoryDeletion)
        case moveCategory(id: Int64, MoveTarget)
        case mergeCategories(sourceIDs: [Int64], targetID: Int64, dryRun: Bool)
        case assignItems([Int64], categoryID: Int64?, dryRun: Bool)
        case moveItems(from: Int64, to: Int64)
        case stats
        case exportCategories
        case importCategories([CategoryImport], ImportMode, dryRun: Bool)
        case listItems(ItemQuery)
        case item(id: Int64)
        case createItem(ItemDraft)
        case updateItem(id: Int64, ItemChanges)
        case deleteItem(id: Int64)
        case importItems([ItemDraft])
    }

    static let date = Date(timeIntervalSince1970: 1_769_162_400)
    static let category = Category(
        id: 1, name: "Family", slug: "family", color: "#E91E63", position: 0, isDefault: true, itemCount: 0,
        revision: 1, createdAt: date, updatedAt: date)
    static let item = Item(id: 1, title: "Sample", createdAt: date, updatedAt: date)

    private let recorded = Mutex<[Call]>([])
    private let exported: [CategoryRecord]

    /// - Parameter exported: what `exportCategories` answers.
    init(exported: [CategoryRecord] = []) {
        self.exported = exported
    }

    /// Every call so far, in order.
    var calls: [Call] { recorded.withLock { $0 } }

    fileprivate func record(_ call: Call) {
        recorded.withLock { $0.append(call) }
    }

    func listCategories(_ query: CategoryQuery) async throws(CatalogError) -> [Category] {
        record(.listCategories(query))
        return [Self.category]
    }

    func category(id: Int64) async throws(CatalogError) -> Category {
        record(.category(id: id))
        return Self.category
    }

    func createCategory(_ draft: CategoryDraft) async throws(CatalogError) -> Category {
        record(.createCategory(draft))
        return Self.category
    }

    func updateCategory(id: Int64, _ changes: CategoryChanges, expectedRevision: Int64?) async throws(CatalogError) -> Category {
        record(.updateCategory(id: id, changes, expectedRevision: expectedRevision))
        return Self.category
    }

    func deleteCategory(_ request: CategoryDeletion) async throws(CatalogError) -> DeleteCategoryResponse {
        record(.deleteCategory(request))
        return DeleteCategoryResponse(deletedItems: 0, movedItems: 0, unassignedItems: 0)
    }

    func moveCategory(id: Int64, to target: MoveTarget, expectedRevision: Int64?) async throws(CatalogError) -> [Category] {
        record(.moveCategory(id: id, target))
        return [Self.category]
    }

    func mergeCategories(sourceIDs: [Int64], into targetID: Int64, dryRun: Bool) async throws(CatalogError) -> MergeCategoriesResponse {
        record(.mergeCategories(sourceIDs: sourceIDs, targetID: targetID, dryRun: dryRun))
        return MergeCategoriesResponse(target: Self.category, movedItems: 0, deletedIds: sourceIDs)
    }

    func assignItems(_ itemIDs: [Int64], to categoryID: Int64?, dryRun: Bool) async throws(CatalogError) -> Int {
        record(.assignItems(itemIDs, categoryID: categoryID, dryRun: dryRun))
        return itemIDs.count
    }

    func moveItems(from: Int64, to: Int64) async throws(CatalogError) -> Int {
        record(.moveItems(from: from, to: to))
        return 0
    }

    func stats() async throws(CatalogError) -> CategoryStats {
        record(.stats)
        return CategoryStats(categoryCount: 1, itemCount: 0, uncategorizedItemCount: 0, emptyCategoryCount: 1, categories: [])
    }

    func exportCategories() async throws(CatalogError) -> [CategoryRecord] {
        record(.exportCategories)
        return exported
    }

    func importCategories(_ records: [CategoryImport], mode: ImportMode, dryRun: Bool) async throws(CatalogError) -> ImportCategoriesResponse {
        record(.importCategories(records, mode, dryRun: dryRun))
        return ImportCategoriesResponse(created: records.count, updated: 0, unchanged: 0, deleted: 0)
    }

    func listItems(_ query: ItemQuery) async throws(CatalogError) -> ListItemsResponse {
        record(.listItems(query))
        return ListItemsResponse(items: [], totalCount: 0)
    }

    func item(id: Int64) async throws(CatalogError) -> Item {
        record(.item(id: id))
        return Self.item
    }

    func createItem(_ draft: ItemDraft) async throws(CatalogError) -> Item {
        record(.createItem(draft))
        return Self.item
    }

    func updateItem(id: Int64, _ changes: ItemChanges) async throws(CatalogError) -> Item {
        record(.updateItem(id: id, changes))
        return Self.item
    }

    func deleteItem(id: Int64) async throws(CatalogError) {
        record(.deleteItem(id: id))
    }

    func importItems(_ drafts: [ItemDraft]) async throws(CatalogError) -> ImportItemsResponse {
        record(.importItems(drafts))
        return ImportItemsResponse(created: drafts.count, firstId: drafts.isEmpty ? nil : 1, lastId: drafts.isEmpty ? nil : Int64(drafts.count), revision: 2)
    }
}

/// Filters are not recorded: service tests of filters run against the real store.
extension RecordingStore: FilterStore {
    func filters() async throws(CatalogError) -> [FilterState] { [] }
    func filterSteps(filterID: String, after revision: Int64) async throws(CatalogError) -> [FilterStep] { [] }
    func defineFilter(_ definition: FilterDefinition) async throws(CatalogError) -> FilterState { throw .unknownFilter(definition.filterID) }
    func applyFilterEdit(_ filterID: String, _ edit: FilterEdit) async throws(CatalogError) -> FilterUpdate { throw .unknownFilter(filterID) }
    func deleteFilter(_ filterID: String) async throws(CatalogError) { throw .unknownFilter(filterID) }
    func observeFilterChanges(_ observer: @escaping @Sendable (FilterChange) -> Void) {}
}

/// A `RecordingStore` whose point reads answer without suspending, as the SQLite store's do.
final class ImmediateRecordingStore: RecordingStore, SynchronousPointReads, @unchecked Sendable {
    func categoryNow(id: Int64) throws(CatalogError) -> Category {
        record(.category(id: id))
        return Self.category
    }

    func itemNow(id: Int64) throws(CatalogError) -> Item {
        record(.item(id: id))
        return Self.item
    }
}
