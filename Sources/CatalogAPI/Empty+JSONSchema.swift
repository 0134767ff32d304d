import RPCCore

// The JSON Schema of every message the method descriptors use (contract §3 and §4).
// `required` names exactly the non-optional stored properties; the tests check that the
// committed `Schema/catalog.v1.json` matches these and that sample messages conform.

private typealias S = JSONSchema

extension Empty: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue { S.object(properties: [:]) }
}

extension Money: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "amount": S.string(pattern: #"^\d{1,12}(\.\d{1,2})?$"#),
                "currency": S.string(pattern: "^[A-Z]{3}$"),
            ],
            required: ["amount", "currency"]
        )
    }
}

/// `#RRGGBB`.
private let colorSchema = S.string(pattern: "^#[0-9A-Fa-f]{6}$")

// MARK: - Entities

extension Item: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "id": S.integer,
                "title": S.string,
                "summary": S.string,
                "level": S.string,
                "duration": S.string,
                "price": Money.jsonSchema,
                "imageURL": S.string,
                "categoryId": S.integer,
                "createdAt": S.dateTime,
                "updatedAt": S.dateTime,
            ],
            required: ["id", "title", "createdAt", "updatedAt"]
        )
    }
}

extension Category: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "id": S.integer,
                "name": S.string,
                "slug": S.string,
                "color": colorSchema,
                "icon": S.string,
                "position": S.integer(minimum: 0),
                "isDefault": S.boolean,
                "itemCount": S.integer(minimum: 0),
                "revision": S.integer,
                "createdAt": S.dateTime,
                "updatedAt": S.dateTime,
            ],
            required: ["id", "name", "slug", "color", "position", "isDefault", "itemCount", "revision", "createdAt", "updatedAt"]
        )
    }
}

// MARK: - catalog.v1.Catalog

extension ListItemsRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: [
            "categoryId": S.integer,
            "query": S.string,
            "level": S.string,
            "sort": S.enumeration(ItemSort.self),
            "descending": S.boolean,
            "pageSize": S.integer(minimum: 1, maximum: 500),
            "pageToken": S.string,
        ])
    }
}

extension ListItemsResponse: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "items": S.array(of: Item.jsonSchema),
                "nextPageToken": S.string,
                "totalCount": S.integer(minimum: 0),
            ],
            required: ["items", "totalCount"]
        )
    }
}

extension IDRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: ["id": S.integer], required: ["id"])
    }
}

extension CreateItemRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "title": S.string,
                "summary": S.string,
                "level": S.string,
                "duration": S.string,
                "price": Money.jsonSchema,
                "imageURL": S.string,
                "categoryId": S.integer,
            ],
            required: ["title"]
        )
    }
}

extension UpdateItemRequest: JSONSchemaDescribable {
    /// An absent key leaves the field as it is; `null` clears the optional fields.
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "id": S.integer,
                "title": S.string,
                "summary": S.nullable(S.string),
                "level": S.nullable(S.string),
                "duration": S.nullable(S.string),
                "price": S.nullable(Money.jsonSchema),
                "imageURL": S.nullable(S.string),
                "categoryId": S.nullable(S.integer),
            ],
            required: ["id"]
        )
    }
}

// MARK: - catalog.v1.Categories

extension ListCategoriesRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: [
            "query": S.string,
            "hideEmpty": S.boolean,
            "sort": S.enumeration(CategorySort.self),
            "descending": S.boolean,
        ])
    }
}

extension CategoryList: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: ["categories": S.array(of: Category.jsonSchema)], required: ["categories"])
    }
}

extension CreateCategoryRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: ["name": S.string, "color": colorSchema, "icon": S.string], required: ["name"])
    }
}

extension UpdateCategoryRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "id": S.integer,
                "name": S.string,
                "color": colorSchema,
                "icon": S.string,
                "isDefault": S.boolean,
                "expectedRevision": S.integer,
            ],
            required: ["id"]
        )
    }
}

extension DeleteCategoryRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "id": S.integer,
                "items": S.enumeration(DeleteItemsPolicy.self),
                "moveTo": S.integer,
                "expectedRevision": S.integer,
                "dryRun": S.boolean,
            ],
            required: ["id"]
        )
    }
}

extension DeleteCategoryResponse: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "deletedItems": S.integer(minimum: 0),
                "movedItems": S.integer(minimum: 0),
                "unassignedItems": S.integer(minimum: 0),
            ],
            required: ["deletedItems", "movedItems", "unassignedItems"]
        )
    }
}

extension MoveCategoryRequest: JSONSchemaDescribable {
    /// Exactly one of `direction` and `toPosition`.
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "id": S.integer,
                "direction": S.enumeration(MoveDirection.self),
                "toPosition": S.integer(minimum: 0),
                "expectedRevision": S.integer,
            ],
            required: ["id"]
        )
    }
}

extension MergeCategoriesRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: ["sourceIds": S.array(of: S.integer), "targetId": S.integer, "dryRun": S.boolean],
            required: ["sourceIds", "targetId"]
        )
    }
}

extension MergeCategoriesResponse: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "target": Category.jsonSchema,
                "movedItems": S.integer(minimum: 0),
                "deletedIds": S.array(of: S.integer),
            ],
            required: ["target", "movedItems", "deletedIds"]
        )
    }
}

extension AssignItemsRequest: JSONSchemaDescribable {
    /// Without `categoryId` the items are unassigned.
    public static var jsonSchema: JSONValue {
        S.object(
            properties: ["itemIds": S.array(of: S.integer), "categoryId": S.integer, "dryRun": S.boolean],
            required: ["itemIds"]
        )
    }
}

extension AssignItemsResponse: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: ["updated": S.integer(minimum: 0)], required: ["updated"])
    }
}

extension MoveItemsRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: ["fromId": S.integer, "toId": S.integer], required: ["fromId", "toId"])
    }
}

extension MoveItemsResponse: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: ["moved": S.integer(minimum: 0)], required: ["moved"])
    }
}

extension CategoryStats.Entry: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "id": S.integer,
                "name": S.string,
                "itemCount": S.integer(minimum: 0),
                "share": S.number(minimum: 0, maximum: 1),
            ],
            required: ["id", "name", "itemCount", "share"]
        )
    }
}

extension CategoryStats: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "categoryCount": S.integer(minimum: 0),
                "itemCount": S.integer(minimum: 0),
                "uncategorizedItemCount": S.integer(minimum: 0),
                "emptyCategoryCount": S.integer(minimum: 0),
                "categories": S.array(of: Entry.jsonSchema),
            ],
            required: ["categoryCount", "itemCount", "uncategorizedItemCount", "emptyCategoryCount", "categories"]
        )
    }
}

extension Palette: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: ["colors": S.array(of: colorSchema)], required: ["colors"])
    }
}

extension CategoryRecord: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "name": S.string,
                "color": colorSchema,
                "icon": S.string,
                "position": S.integer(minimum: 0),
                "isDefault": S.boolean,
            ],
            required: ["name", "color", "position", "isDefault"]
        )
    }
}

extension CategoryExport: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "format": S.constant(formatName),
                "exportedAt": S.dateTime,
                "categories": S.array(of: CategoryRecord.jsonSchema),
            ],
            required: ["format", "exportedAt", "categories"]
        )
    }
}

extension ImportCategoriesRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "categories": S.array(of: CategoryRecord.jsonSchema),
                "mode": S.enumeration(ImportMode.self),
                "dryRun": S.boolean,
            ],
            required: ["categories", "mode"]
        )
    }
}

extension ImportCategoriesResponse: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "created": S.integer(minimum: 0),
                "updated": S.integer(minimum: 0),
                "unchanged": S.integer(minimum: 0),
                "deleted": S.integer(minimum: 0),
            ],
            required: ["created", "updated", "unchanged", "deleted"]
        )
    }
}

// MARK: - catalog.v1.Filters

/// `[a-z0-9._-]`, 1 to 64 characters, starting with a letter or digit.
private let filterIDSchema = S.string(pattern: "^[a-z0-9][a-z0-9._-]{0,63}$")

extension FilterOption: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: ["id": S.integer, "title": S.string, "icon": S.string], required: ["id", "title"])
    }
}

extension FilterState: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "filterId": filterIDSchema,
                "title": S.string,
                "options": S.array(of: FilterOption.jsonSchema),
                "selectedId": S.integer,
                "presentation": S.enumeration(FilterPresentation.self),
                "revision": S.integer(minimum: 1),
                "updatedAt": S.dateTime,
                "source": S.enumeration(FilterSource.self),
            ],
            required: ["filterId", "title", "options", "presentation", "revision", "updatedAt"]
        )
    }
}

extension FilterEvent: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "kind": S.enumeration(FilterEvent.Kind.self),
                "revision": S.integer(minimum: 0),
                "previousRevision": S.integer(minimum: 0),
                "state": FilterState.jsonSchema,
                "reset": S.boolean,
            ],
            required: ["kind", "revision"]
        )
    }
}

extension DefineFilterRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "filterId": filterIDSchema,
                "title": S.string,
                "options": S.array(of: FilterOption.jsonSchema),
                "source": S.enumeration(FilterSource.self),
            ],
            required: ["filterId", "title"]
        )
    }
}

extension FilterIDRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: ["filterId": filterIDSchema], required: ["filterId"])
    }
}

extension FilterList: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(properties: ["filters": S.array(of: FilterState.jsonSchema)], required: ["filters"])
    }
}

extension SelectFilterRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: ["filterId": filterIDSchema, "optionId": S.integer, "toggle": S.boolean],
            required: ["filterId"]
        )
    }
}

extension SetPresentationRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: ["filterId": filterIDSchema, "presentation": S.enumeration(FilterPresentation.self)],
            required: ["filterId", "presentation"]
        )
    }
}

extension WatchFilterRequest: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: [
                "filterId": filterIDSchema,
                "sinceRevision": S.integer(minimum: 0),
                "delivery": S.enumeration(FilterDelivery.self),
                "heartbeatSeconds": S.integer(minimum: 1, maximum: 3600),
            ],
            required: ["filterId"]
        )
    }
}

// MARK: - grpc.health.v1.Health

extension HealthCheckRequest: JSONSchemaDescribable {
    /// Absent or `""`: the server as a whole.
    public static var jsonSchema: JSONValue {
        S.object(properties: ["service": S.string])
    }
}

extension HealthCheckResponse: JSONSchemaDescribable {
    public static var jsonSchema: JSONValue {
        S.object(
            properties: ["status": S.enumeration([ServingStatus.serving.rawValue, ServingStatus.notServing.rawValue])],
            required: ["status"]
        )
    }
}
