extension CategoryExport {
    /// The value of every export's `format`.
    public static let formatName = "catalog.categories.v1"
}
