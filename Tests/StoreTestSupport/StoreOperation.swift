import CatalogAPI
import CatalogStore
import PropertyBased

/// A category named by an operation: the `n`-th existing one (modulo how many exist when the
/// operation runs) or one that does not exist. Naming by slot rather than by id keeps a sequence
/// meaningful when shrinking removes the operations before it.
package enum CategoryRef: Hashable, Sendable, CustomStringConvertible {
    case slot(Int)
    case missing

    static let missingID: Int64 = 9999

    func resolve(_ ids: [Int64]) -> Int64 {
        guard case .slot(let slot) = self, !ids.isEmpty else { return Self.missingID }
        return ids[slot % ids.count]
    }

    package var description: String {
        switch self {
        case .slot(let slot): "c\(slot)"
        case .missing: "c?"
        }
    }
}

/// An item named by an operation, like `CategoryRef`.
package enum ItemRef: Hashable, Sendable, CustomStringConvertible {
    case slot(Int)
    case missing

    static let missingID: Int64 = 8888

    func resolve(_ ids: [Int64]) -> Int64 {
        guard case .slot(let slot) = self, !ids.isEmpty else { return Self.missingID }
        return ids[slot % ids.count]
    }

    package var description: String {
        switch self {
        case .slot(let slot): "i\(slot)"
        case .missing: "i?"
        }
    }
}

/// One write of the store, with its arguments. Names come from a small pool so slugs collide
/// often; ids are slots, mostly of existing rows and sometimes missing, so most operations
/// succeed and some fail.
package enum StoreOperation: Hashable, Sendable {
    case createCategory(name: Int)
    case updateCategory(CategoryRef, name: Int?, isDefault: Bool?, expectedRevision: Int64?)
    case deleteCategory(CategoryRef, policy: DeleteItemsPolicy, moveTo: CategoryRef, expectedRevision: Int64?, dryRun: Bool)
    case moveCategory(CategoryRef, to: MoveTarget, expectedRevision: Int64?)
    case mergeCategories(sources: [CategoryRef], into: CategoryRef, dryRun: Bool)
    case assignItems([ItemRef], to: CategoryRef?, dryRun: Bool)
    case moveItems(from: CategoryRef, to: CategoryRef)
    case importCategories(names: [Int], defaultIndex: Int?, mode: ImportMode, dryRun: Bool)
    case createItem(title: Int, category: CategoryRef?)
    case updateItem(ItemRef, category: CategoryRef?)
    case deleteItem(ItemRef)

    package static let names = ["Books", "Films", "Music", "Art", "Food", "Travel", "Family", "Cars"]

    /// Whether the operation is a dry run, so must change nothing.
    package var isDryRun: Bool {
        switch self {
        case .deleteCategory(_, _, _, _, let dryRun), .mergeCategories(_, _, let dryRun), .assignItems(_, _, let dryRun),
            .importCategories(_, _, _, let dryRun):
            dryRun
        default: false
        }
    }

    /// Runs the operation against `store`, resolving slots against the ids that exist now.
    package func apply(to store: some CatalogStore) async throws(CatalogError) {
        let categories = try await store.listCategories(CategoryQuery()).map(\.id)
        let items = try await store.listItems(ItemQuery(pageSize: 500)).items.map(\.id)
        try await apply(to: store, categories: categories, items: items)
    }

    /// Runs the operation against `store`, resolving slots against `categories` and `items`.
    func apply(to store: some CatalogStore, categories: [Int64], items: [Int64]) async throws(CatalogError) {
        func category(_ ref: CategoryRef) -> Int64 { ref.resolve(categories) }
        func item(_ ref: ItemRef) -> Int64 { ref.resolve(items) }
        func categoryName(_ index: Int) -> CategoryName { name(Self.names[index % Self.names.count]) }
        switch self {
        case .createCategory(let index):
            _ = try await store.createCategory(CategoryDraft(name: categoryName(index)))
        case .updateCategory(let ref, let index, let isDefault, let revision):
            _ = try await store.updateCategory(
                id: category(ref), CategoryChanges(name: index.map(categoryName), isDefault: isDefault),
                expectedRevision: revision)
        case .deleteCategory(let ref, let policy, let moveTo, let revision, let dryRun):
            _ = try await store.deleteCategory(
                CategoryDeletion(
                    id: category(ref), items: policy, moveTo: policy == .move ? category(moveTo) : nil,
                    expectedRevision: revision, dryRun: dryRun))
        case .moveCategory(let ref, let target, let revision):
            _ = try await store.moveCategory(id: category(ref), to: target, expectedRevision: revision)
        case .mergeCategories(let sources, let target, let dryRun):
            _ = try await store.mergeCategories(sourceIDs: sources.map(category), into: category(target), dryRun: dryRun)
        case .assignItems(let refs, let target, let dryRun):
            _ = try await store.assignItems(refs.map(item), to: target.map(category), dryRun: dryRun)
        case .moveItems(let from, let to):
            _ = try await store.moveItems(from: category(from), to: category(to))
        case .importCategories(let indices, let defaultIndex, let mode, let dryRun):
            let records = indices.enumerated().map { offset, index in
                CategoryImport(
                    name: categoryName(index), color: "#123456", position: offset, isDefault: offset == defaultIndex)
            }
            _ = try await store.importCategories(records, mode: mode, dryRun: dryRun)
        case .createItem(let title, let ref):
            _ = try await store.createItem(ItemDraft(title: "item \(title)", categoryID: ref.map(category)))
        case .updateItem(let ref, let target):
            _ = try await store.updateItem(
                id: item(ref), ItemChanges(categoryID: target.map { .set(category($0)) } ?? .clear))
        case .deleteItem(let ref):
            try await store.deleteItem(id: item(ref))
        }
    }
}

// MARK: - Generators

/// Generators of store operations. Every part is built from the library's integer and Boolean
/// generators with `zip` and `map`, so a failing sequence shrinks: operations are dropped, slots
/// move towards 0, flags towards `false`.
package enum StoreOperationGen {
    typealias OperationGenerator = Generator<StoreOperation, AnySequence<Any>>

    /// Mostly one of the first few existing categories, one time in ten a missing one.
    static let category = Gen.int(in: 0...9).map { $0 == 9 ? CategoryRef.missing : .slot($0) }
    static let item = Gen.int(in: 0...9).map { $0 == 9 ? ItemRef.missing : .slot($0) }
    static let name = Gen.int(in: 0..<StoreOperation.names.count)
    static let dryRun = Gen.bool(0.25)
    /// Usually no expected revision; otherwise a small one that may or may not match.
    static let revision = Gen.int64(in: 1...3).optional(valueRate: 0.2)

    static let createCategory: OperationGenerator = name.map { StoreOperation.createCategory(name: $0) }.eraseToAny()
    static let updateCategory: OperationGenerator = zip(category, name.optional(valueRate: 0.8), Gen.bool(0.15), revision)
        .map { ref, name, isDefault, revision in
            StoreOperation.updateCategory(ref, name: name, isDefault: isDefault ? true : nil, expectedRevision: revision)
        }
        .eraseToAny()
    static let deleteCategory: OperationGenerator = zip(Gen.int(in: 0...3), category, category, revision, dryRun)
        .map { policy, ref, moveTo, revision, dryRun in
            StoreOperation.deleteCategory(
                ref, policy: DeleteItemsPolicy.allCases[policy], moveTo: moveTo, expectedRevision: revision,
                dryRun: dryRun)
        }
        .eraseToAny()
    /// A step, or a position from -1 to 10 (some out of range).
    static let moveCategory: OperationGenerator = zip(category, Gen.int(in: 0...13), revision)
        .map { ref, target, revision in
            let moveTarget: MoveTarget =
                switch target {
                case 0: .step(.up)
                case 1: .step(.down)
                default: .position(target - 3)
                }
            return StoreOperation.moveCategory(ref, to: moveTarget, expectedRevision: revision)
        }
        .eraseToAny()
    static let mergeCategories: OperationGenerator = zip(category.array(of: 1...3), category, dryRun)
        .map { StoreOperation.mergeCategories(sources: $0, into: $1, dryRun: $2) }
        .eraseToAny()
    static let assignItems: OperationGenerator = zip(item.array(of: 1...3), category.optional(valueRate: 0.8), dryRun)
        .map { StoreOperation.assignItems($0, to: $1, dryRun: $2) }
        .eraseToAny()
    static let moveItems: OperationGenerator = zip(category, category)
        .map { StoreOperation.moveItems(from: $0, to: $1) }
        .eraseToAny()
    static let importCategories: OperationGenerator = zip(
        name.array(of: 0...4), Gen.int(in: 0...3).optional(valueRate: 0.3), Gen.bool(0.5), dryRun
    )
    .map { names, defaultIndex, replace, dryRun in
        StoreOperation.importCategories(
            names: names, defaultIndex: defaultIndex, mode: replace ? .replace : .merge, dryRun: dryRun)
    }
    .eraseToAny()
    static let createItem: OperationGenerator = zip(Gen.int(in: 0...99), category.optional(valueRate: 0.7))
        .map { StoreOperation.createItem(title: $0, category: $1) }
        .eraseToAny()
    static let updateItem: OperationGenerator = zip(item, category.optional(valueRate: 0.7))
        .map { StoreOperation.updateItem($0, category: $1) }
        .eraseToAny()
    static let deleteItem: OperationGenerator = item.map { StoreOperation.deleteItem($0) }.eraseToAny()

    /// Any write, weighted so categories and items keep existing to work on.
    package static let operation = Gen<StoreOperation>.frequency([
        (weight: 3, gen: createCategory),
        (weight: 2, gen: updateCategory),
        (weight: 2, gen: deleteCategory),
        (weight: 2, gen: moveCategory),
        (weight: 1, gen: mergeCategories),
        (weight: 2, gen: assignItems),
        (weight: 1, gen: moveItems),
        (weight: 1, gen: importCategories),
        (weight: 4, gen: createItem),
        (weight: 2, gen: updateItem),
        (weight: 1, gen: deleteItem),
    ])

    /// A sequence of `count` operations.
    package static func sequence(of count: ClosedRange<Int>) -> Generator<[StoreOperation], Generator<StoreOperation, AnySequence<(index: Int, value: Any)>>.ArrayShrink> {
        operation.array(of: count)
    }
}
