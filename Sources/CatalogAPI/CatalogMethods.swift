import RPCCore

/// `catalog.v1.Catalog`: the items.
public enum CatalogService {
    public static let name = "catalog.v1.Catalog"

    public static let listItems = UnaryMethod<ListItemsRequest, ListItemsResponse>(service: name, method: "ListItems")
    public static let getItem = UnaryMethod<IDRequest, Item>(service: name, method: "GetItem")
    public static let createItem = UnaryMethod<CreateItemRequest, Item>(service: name, method: "CreateItem")
    public static let updateItem = UnaryMethod<UpdateItemRequest, Item>(service: name, method: "UpdateItem")
    public static let deleteItem = UnaryMethod<IDRequest, Empty>(service: name, method: "DeleteItem")
    /// Many items in one transaction: a stream of CreateItem requests (at most 100 000).
    public static let importItems = ClientStreamingMethod<CreateItemRequest, ImportItemsResponse>(service: name, method: "ImportItems")
}

/// `catalog.v1.Categories`: category management.
public enum CategoriesService {
    public static let name = "catalog.v1.Categories"

    public static let list = UnaryMethod<ListCategoriesRequest, CategoryList>(service: name, method: "List")
    public static let get = UnaryMethod<IDRequest, Category>(service: name, method: "Get")
    public static let create = UnaryMethod<CreateCategoryRequest, Category>(service: name, method: "Create")
    public static let update = UnaryMethod<UpdateCategoryRequest, Category>(service: name, method: "Update")
    public static let delete = UnaryMethod<DeleteCategoryRequest, DeleteCategoryResponse>(service: name, method: "Delete")
    public static let move = UnaryMethod<MoveCategoryRequest, CategoryList>(service: name, method: "Move")
    public static let merge = UnaryMethod<MergeCategoriesRequest, MergeCategoriesResponse>(service: name, method: "Merge")
    public static let assignItems = UnaryMethod<AssignItemsRequest, AssignItemsResponse>(service: name, method: "AssignItems")
    public static let moveItems = UnaryMethod<MoveItemsRequest, MoveItemsResponse>(service: name, method: "MoveItems")
    public static let stats = UnaryMethod<Empty, CategoryStats>(service: name, method: "Stats")
    public static let palette = UnaryMethod<Empty, Palette>(service: name, method: "Palette")
    public static let export = UnaryMethod<Empty, CategoryExport>(service: name, method: "Export")
    public static let `import` = UnaryMethod<ImportCategoriesRequest, ImportCategoriesResponse>(service: name, method: "Import")
}

/// `catalog.v1.Filters`: shared selection and presentation state, its Watch stream, and the
/// Session that watches and changes a filter on one stream.
public enum FiltersService {
    public static let name = "catalog.v1.Filters"

    public static let define = UnaryMethod<DefineFilterRequest, FilterState>(service: name, method: "Define")
    public static let get = UnaryMethod<FilterIDRequest, FilterState>(service: name, method: "Get")
    public static let list = UnaryMethod<Empty, FilterList>(service: name, method: "List")
    public static let select = UnaryMethod<SelectFilterRequest, FilterState>(service: name, method: "Select")
    public static let setPresentation = UnaryMethod<SetPresentationRequest, FilterState>(service: name, method: "SetPresentation")
    public static let togglePresentation = UnaryMethod<FilterIDRequest, FilterState>(service: name, method: "TogglePresentation")
    public static let delete = UnaryMethod<FilterIDRequest, Empty>(service: name, method: "Delete")
    public static let watch = ServerStreamingMethod<WatchFilterRequest, FilterEvent>(service: name, method: "Watch")
    public static let session = BidirectionalStreamingMethod<FilterSessionRequest, FilterEvent>(service: name, method: "Session")
}
