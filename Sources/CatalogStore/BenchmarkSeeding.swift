/// A store that can be filled with a large synthetic catalog, for load tests.
public protocol BenchmarkSeeding: Sendable {
    /// Fills an empty store (no item, only the default categories) with `categories`
    /// categories in all and `items` items: `largeCategoryItems` of them in one (non-default)
    /// category, the rest spread evenly over the others, every derived column and count as the
    /// ordinary writes keep them. For load tests, not for production data.
    ///
    /// INVALID_ARGUMENT `invalidField("seed", …)` when the store is not empty or the numbers do
    /// not fit.
    @discardableResult
    func seedForBenchmark(categories: Int, items: Int, largeCategoryItems: Int) async throws(CatalogError) -> BenchmarkSeedSummary
}

/// What `seedForBenchmark` created.
public struct BenchmarkSeedSummary: Sendable, Equatable {
    /// Categories in the store afterwards (the migration's defaults included).
    public var categoryCount: Int
    /// Items created.
    public var itemCount: Int
    /// The category holding `largeCategoryItems` items (not a default one, so it can be merged away).
    public var largeCategoryID: Int64
    /// A category in the middle of the order holding an ordinary share of the items.
    public var middleCategoryID: Int64
    /// A category other than the large one, e.g. a merge target.
    public var otherCategoryID: Int64

    public init(categoryCount: Int, itemCount: Int, largeCategoryID: Int64, middleCategoryID: Int64, otherCategoryID: Int64) {
        self.categoryCount = categoryCount
        self.itemCount = itemCount
        self.largeCategoryID = largeCategoryID
        self.middleCategoryID = middleCategoryID
        self.otherCategoryID = otherCategoryID
    }
}
