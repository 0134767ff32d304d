import CatalogAPI
import CatalogServices
import CatalogStore
import Foundation
import RPCCore
import Testing
import TestSupport

@Suite("The machine-readable contract (Schema/catalog.v1.json)", .timeLimit(.minutes(1)))
struct ContractSchemaTests {
    static let regenerate = "regenerate it with `swift run catalogd --print-schema > Schema/catalog.v1.json`"

    static func jsonValue(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    @Test("the committed Schema/catalog.v1.json is what the code generates")
    func committedFileIsCurrent() throws {
        let url = try PackageRoot.url().appendingPathComponent("Schema/catalog.v1.json")
        let committed = try #require(FileManager.default.contents(atPath: url.path), "Schema/catalog.v1.json is missing; \(Self.regenerate)")
        let generated = try CatalogContract.documentJSON()
        #expect(
            try Self.jsonValue(committed) == Self.jsonValue(generated),
            "Schema/catalog.v1.json differs from the contract in the code; \(Self.regenerate)"
        )
    }

    @Test("every method lists the content types the server reads, each selecting its own codec")
    func contentTypes() {
        for method in CatalogContract.document.services.flatMap(\.methods) {
            #expect(method.contentTypes == ["application/grpc", "application/grpc+json", "application/grpc+cbor"], "\(method.path)")
            let codecs = method.contentTypes.compactMap { ContentType(headerValue: $0)?.codecName }
            #expect(codecs == ["json", "json", "cbor"], "\(method.path)")
        }
    }

    @Test("the document names the package and lists services in name order, each once")
    func documentShape() {
        let document = CatalogContract.document
        #expect(document.package == "catalog.v1")
        let names = document.services.map(\.name)
        #expect(names == names.sorted())
        #expect(Set(names).count == names.count)
        #expect(names == ["catalog.v1.Catalog", "catalog.v1.Categories", "catalog.v1.Filters", "catalog.v1.Reflection", "grpc.health.v1.Health"])
        for service in document.services {
            for method in service.methods {
                #expect(method.path == "/\(service.name)/\(method.name)")
            }
        }
    }

    @Test("every method the server routes is in the document with its path and streaming kind, and vice versa")
    func routerMatchesDocument() {
        let health = HealthService(services: HealthService.catalogServiceNames)
        let router = Router.catalog(store: RecordingStore(), health: health, filters: FilterHub())
        struct Shape: Hashable { let path: String, clientStreaming: Bool, serverStreaming: Bool }
        let routed = Set(router.methods.map { Shape(path: $0.path, clientStreaming: $0.kind.clientStreaming, serverStreaming: $0.kind.serverStreaming) })
        let documented = Set(
            CatalogContract.document.services.flatMap(\.methods).map {
                Shape(path: $0.path, clientStreaming: $0.clientStreaming, serverStreaming: $0.serverStreaming)
            })
        #expect(routed.subtracting(documented).isEmpty, "routed but not in the contract")
        #expect(documented.subtracting(routed).isEmpty, "in the contract but not routed")
        #expect(Set(HealthService.catalogServiceNames) == Set(CatalogContract.document.services.map(\.name)))
    }

    @Test("roles follow contract §2: Health and Reflection none, reads and Watch reader, filter state writes writer, the rest admin")
    func roles() {
        let readers: Set = [
            "/catalog.v1.Catalog/ListItems", "/catalog.v1.Catalog/GetItem", "/catalog.v1.Categories/List",
            "/catalog.v1.Categories/Get", "/catalog.v1.Categories/Stats", "/catalog.v1.Categories/Palette",
            "/catalog.v1.Categories/Export", "/catalog.v1.Filters/Get", "/catalog.v1.Filters/List",
            "/catalog.v1.Filters/Watch", "/catalog.v1.Filters/Session",
        ]
        let writers: Set = [
            "/catalog.v1.Filters/Select", "/catalog.v1.Filters/SetPresentation", "/catalog.v1.Filters/TogglePresentation",
        ]
        for method in CatalogContract.methods {
            let path = method.descriptor.path
            let expected: MethodRole =
                [Health.serviceName, Reflection.serviceName].contains(method.descriptor.service) ? .none
                : readers.contains(path) ? .reader : writers.contains(path) ? .writer : .admin
            #expect(method.role == expected, "\(path)")
        }
    }

    @Test("every schema's required list names only properties it defines")
    func requiredNamesDefinedProperties() {
        var problems: [String] = []
        for service in CatalogContract.document.services {
            for method in service.methods {
                Self.checkRequired(method.request, at: "\(method.path) request", into: &problems)
                Self.checkRequired(method.response, at: "\(method.path) response", into: &problems)
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    /// Walks every nested schema.
    static func checkRequired(_ schema: JSONValue, at path: String, into problems: inout [String]) {
        switch schema {
        case .object(let fields):
            if case .array(let required)? = fields["required"] {
                guard case .object(let properties)? = fields["properties"] else {
                    problems.append("\(path): required without properties")
                    return
                }
                for name in required where properties[name.stringValue ?? ""] == nil {
                    problems.append("\(path): required \(name) is not a property")
                }
            }
            for (key, value) in fields where key != "enum" && key != "required" {
                checkRequired(value, at: "\(path).\(key)", into: &problems)
            }
        case .array(let values):
            for (index, value) in values.enumerated() { checkRequired(value, at: "\(path)[\(index)]", into: &problems) }
        default:
            break
        }
    }

    // MARK: - Sample messages

    static let date = Date(timeIntervalSince1970: 1_769_162_400)
    static let category = Category(
        id: 3, name: "IA Générative", slug: "ia_générative", color: "#9C27B0", icon: "sparkles", position: 2,
        isDefault: false, itemCount: 12, revision: 7, createdAt: date, updatedAt: date
    )
    static let item = Item(
        id: 7, title: "Swift", summary: "Concurrency", level: "Débutant", duration: "2 jours",
        price: Money(amount: "990.00", currency: "EUR"), imageURL: "https://example.com/a.png", categoryId: 3,
        createdAt: date, updatedAt: date
    )
    static let filterState = FilterState(
        filterId: "categories", title: "Catégories", options: [FilterOption(id: 1, title: "Family", icon: "house")],
        selectedId: 1, presentation: .collapsed, revision: 42, updatedAt: date, source: .categories)
    static let record = CategoryRecord(name: "Cars", color: "#112233", icon: "car", position: 0, isDefault: false)

    /// One sample request for every method of the contract, by path.
    static func sampleRequests() throws -> [String: JSONValue] {
        func json(_ message: some Encodable) throws -> JSONValue {
            try jsonValue(Data(JSONCodec().encode(message)))
        }
        return [
            CatalogService.listItems.descriptor.path: try json(
                ListItemsRequest(categoryId: 1, query: "swift", level: "Débutant", sort: .price, descending: true, pageSize: 20, pageToken: "abc")),
            CatalogService.getItem.descriptor.path: try json(IDRequest(id: 1)),
            CatalogService.createItem.descriptor.path: try json(
                CreateItemRequest(title: "Swift", summary: "s", level: "l", duration: "d", price: Money(amount: "10.50", currency: "EUR"), imageURL: "https://x.y/z", categoryId: 2)),
            CatalogService.updateItem.descriptor.path: try json(
                UpdateItemRequest(id: 1, title: "T", summary: .clear, price: .set(Money(amount: "1", currency: "USD")), categoryId: .clear)),
            CatalogService.deleteItem.descriptor.path: try json(IDRequest(id: 1)),
            CatalogService.importItems.descriptor.path: try json(CreateItemRequest(title: "Imported", categoryId: 2)),
            CategoriesService.list.descriptor.path: try json(ListCategoriesRequest(query: "a", hideEmpty: true, sort: .itemCount, descending: false)),
            CategoriesService.get.descriptor.path: try json(IDRequest(id: 2)),
            CategoriesService.create.descriptor.path: try json(CreateCategoryRequest(name: "Cars", color: "#aabbcc", icon: "car")),
            CategoriesService.update.descriptor.path: try json(
                UpdateCategoryRequest(id: 2, name: "Bikes", color: "#AABBCC", icon: "", isDefault: true, expectedRevision: 4)),
            CategoriesService.delete.descriptor.path: try json(DeleteCategoryRequest(id: 2, items: .move, moveTo: 3, expectedRevision: 1, dryRun: true)),
            CategoriesService.move.descriptor.path: try json(MoveCategoryRequest(id: 2, direction: .up, expectedRevision: 3)),
            CategoriesService.merge.descriptor.path: try json(MergeCategoriesRequest(sourceIds: [1, 2], targetId: 3, dryRun: false)),
            CategoriesService.assignItems.descriptor.path: try json(AssignItemsRequest(itemIds: [4, 5], categoryId: 3, dryRun: true)),
            CategoriesService.moveItems.descriptor.path: try json(MoveItemsRequest(fromId: 1, toId: 2)),
            CategoriesService.stats.descriptor.path: try json(Empty()),
            CategoriesService.palette.descriptor.path: try json(Empty()),
            CategoriesService.export.descriptor.path: try json(Empty()),
            CategoriesService.import.descriptor.path: try json(ImportCategoriesRequest(categories: [record], mode: .replace, dryRun: true)),
            FiltersService.define.descriptor.path: try json(
                DefineFilterRequest(filterId: "levels", title: "Niveaux", options: [FilterOption(id: 1, title: "Débutant", icon: "leaf")], source: nil)),
            FiltersService.get.descriptor.path: try json(FilterIDRequest(filterId: "categories")),
            FiltersService.list.descriptor.path: try json(Empty()),
            FiltersService.select.descriptor.path: try json(SelectFilterRequest(filterId: "categories", optionId: 3, toggle: true)),
            FiltersService.setPresentation.descriptor.path: try json(SetPresentationRequest(filterId: "categories", presentation: .collapsed)),
            FiltersService.togglePresentation.descriptor.path: try json(FilterIDRequest(filterId: "categories")),
            FiltersService.delete.descriptor.path: try json(FilterIDRequest(filterId: "levels")),
            FiltersService.watch.descriptor.path: try json(
                WatchFilterRequest(filterId: "categories", sinceRevision: 4, delivery: .everyChange, heartbeatSeconds: 5)),
            FiltersService.session.descriptor.path: try json(
                FilterSessionRequest(filterId: "categories", sinceRevision: 4, delivery: .everyChange, heartbeatSeconds: 5)),
            Reflection.describe.descriptor.path: try json(Empty()),
            Health.check.descriptor.path: try json(HealthCheckRequest(service: "catalog.v1.Catalog")),
            Health.watch.descriptor.path: try json(HealthCheckRequest()),
        ]
    }

    /// Sample responses, by path (not every method).
    static func sampleResponses() throws -> [String: JSONValue] {
        func json(_ message: some Encodable) throws -> JSONValue {
            try jsonValue(Data(JSONCodec().encode(message)))
        }
        return [
            CatalogService.listItems.descriptor.path: try json(ListItemsResponse(items: [item, Item(id: 8, title: "Bare", createdAt: date, updatedAt: date)], nextPageToken: "n", totalCount: 2)),
            CatalogService.getItem.descriptor.path: try json(item),
            CatalogService.deleteItem.descriptor.path: try json(Empty()),
            CatalogService.importItems.descriptor.path: try json(ImportItemsResponse(created: 2, firstId: 5, lastId: 6, revision: 9)),
            CategoriesService.list.descriptor.path: try json(CategoryList(categories: [category])),
            CategoriesService.delete.descriptor.path: try json(DeleteCategoryResponse(deletedItems: 1, movedItems: 0, unassignedItems: 2)),
            CategoriesService.merge.descriptor.path: try json(MergeCategoriesResponse(target: category, movedItems: 3, deletedIds: [1, 2])),
            CategoriesService.stats.descriptor.path: try json(
                CategoryStats(categoryCount: 1, itemCount: 4, uncategorizedItemCount: 1, emptyCategoryCount: 0, categories: [.init(id: 3, name: "A", itemCount: 3, share: 0.75)])),
            CategoriesService.palette.descriptor.path: try json(Palette(colors: ["#112233"])),
            CategoriesService.export.descriptor.path: try json(CategoryExport(exportedAt: date, categories: [record])),
            CategoriesService.import.descriptor.path: try json(ImportCategoriesResponse(created: 1, updated: 0, unchanged: 2, deleted: 0)),
            FiltersService.get.descriptor.path: try json(filterState),
            FiltersService.list.descriptor.path: try json(FilterList(filters: [filterState, FilterState(filterId: "x", title: "X", options: [], revision: 1, updatedAt: date)])),
            FiltersService.delete.descriptor.path: try json(Empty()),
            Reflection.describe.descriptor.path: try json(CatalogContract.document),
            Health.check.descriptor.path: try json(HealthCheckResponse(status: .serving)),
        ]
    }

    @Test("a sample request of every method conforms to its request schema")
    func sampleRequestsConform() throws {
        let samples = try Self.sampleRequests()
        for method in CatalogContract.methods {
            let path = method.descriptor.path
            let sample = try #require(samples[path], "no sample request for \(path)")
            let problems = SchemaChecker.problems(sample, method.requestSchema, at: "request")
            #expect(problems.isEmpty, "\(path): \(problems)")
        }
        #expect(samples.count == CatalogContract.methods.count)
    }

    /// The request and response types of every method, by path.
    static func messageTypes() -> [String: (request: any Codable.Type, response: any Codable.Type)] {
        var types: [String: (request: any Codable.Type, response: any Codable.Type)] = [:]
        func add<Request, Response>(_ method: UnaryMethod<Request, Response>) {
            types[method.descriptor.path] = (Request.self, Response.self)
        }
        func add<Request, Response>(_ method: ServerStreamingMethod<Request, Response>) {
            types[method.descriptor.path] = (Request.self, Response.self)
        }
        func add<Request, Response>(_ method: ClientStreamingMethod<Request, Response>) {
            types[method.descriptor.path] = (Request.self, Response.self)
        }
        func add<Request, Response>(_ method: BidirectionalStreamingMethod<Request, Response>) {
            types[method.descriptor.path] = (Request.self, Response.self)
        }
        add(CatalogService.listItems); add(CatalogService.getItem); add(CatalogService.createItem)
        add(CatalogService.updateItem); add(CatalogService.deleteItem); add(CatalogService.importItems)
        add(CategoriesService.list); add(CategoriesService.get); add(CategoriesService.create)
        add(CategoriesService.update); add(CategoriesService.delete); add(CategoriesService.move)
        add(CategoriesService.merge); add(CategoriesService.assignItems); add(CategoriesService.moveItems)
        add(CategoriesService.stats); add(CategoriesService.palette); add(CategoriesService.export)
        add(CategoriesService.import); add(FiltersService.define); add(FiltersService.get); add(FiltersService.list)
        add(FiltersService.select); add(FiltersService.setPresentation); add(FiltersService.togglePresentation)
        add(FiltersService.delete); add(FiltersService.watch); add(FiltersService.session); add(Reflection.describe); add(Health.check); add(Health.watch)
        return types
    }

    /// Decodes a request of the method's type, by path.
    static func requestDecoders() -> [String: (Data) throws -> Void] {
        messageTypes().mapValues { types in { _ = try JSONDecoder().decode(types.request, from: $0) } }
    }

    @Test("a request schema's required keys are exactly the keys its Swift type cannot decode without")
    func requiredMatchesCodable() throws {
        let samples = try Self.sampleRequests()
        let decoders = Self.requestDecoders()
        for method in CatalogContract.methods {
            let path = method.descriptor.path
            let decode = try #require(decoders[path], "no decoder for \(path)")
            guard case .object(let sample)? = samples[path], case .object(let schema) = method.requestSchema else {
                Issue.record("\(path): sample or schema is not an object")
                continue
            }
            var required = Set<String>()
            if case .array(let names)? = schema["required"] { required = Set(names.compactMap(\.stringValue)) }
            for key in sample.keys {
                var without = sample
                without.removeValue(forKey: key)
                let data = try JSONEncoder().encode(JSONValue.object(without))
                if required.contains(key) {
                    #expect(throws: (any Error).self, "\(path): decodes without required '\(key)'") { try decode(data) }
                } else {
                    #expect(throws: Never.self, "\(path): needs '\(key)', which the schema leaves optional") { try decode(data) }
                }
            }
        }
    }

    @Test("sample responses conform to their response schemas")
    func sampleResponsesConform() throws {
        for (path, sample) in try Self.sampleResponses() {
            let method = try #require(CatalogContract.method(at: path))
            let problems = SchemaChecker.problems(sample, method.responseSchema, at: "response")
            #expect(problems.isEmpty, "\(path): \(problems)")
        }
    }

    /// One Watch and Session event of every kind.
    static let watchEvents = [
        FilterEvent(kind: .snapshot, revision: 42, state: filterState),
        FilterEvent(kind: .snapshot, revision: 42, state: filterState, reset: true),
        FilterEvent(kind: .synced, revision: 42),
        FilterEvent(kind: .change, revision: 43, previousRevision: 42, state: filterState),
        FilterEvent(kind: .heartbeat, revision: 43),
        FilterEvent(kind: .change, revision: 44, previousRevision: 43, state: filterState, tag: "t1"),
        FilterEvent(kind: .ack, revision: 44, tag: "t2"),
        FilterEvent(
            kind: .ack, revision: 44, tag: "t3",
            error: .init(code: "not_found", message: "no option 9", reason: "unknownOption", field: "optionId", details: ["ids": .array([9, .bool(true), .null, .object(["x": "y"])])])),
    ]

    @Test("every kind of Watch and Session event conforms to the FilterEvent schema")
    func watchEventsConform() throws {
        for event in Self.watchEvents {
            let sample = try Self.jsonValue(Data(JSONCodec().encode(event)))
            let problems = SchemaChecker.problems(sample, FilterEvent.jsonSchema, at: "event")
            #expect(problems.isEmpty, "\(event.kind): \(problems)")
        }
    }

    @Test("the checker catches a missing required key, an unknown key and a wrong type")
    func checkerCatchesMistakes() throws {
        let schema = MergeCategoriesRequest.jsonSchema
        #expect(!SchemaChecker.problems(.object(["sourceIds": .array([1])]), schema, at: "m").isEmpty)
        #expect(!SchemaChecker.problems(.object(["sourceIds": .array([1]), "targetId": 2, "extra": true]), schema, at: "m").isEmpty)
        #expect(!SchemaChecker.problems(.object(["sourceIds": .array(["1"]), "targetId": 2]), schema, at: "m").isEmpty)
        #expect(SchemaChecker.problems(.object(["sourceIds": .array([1]), "targetId": 2]), schema, at: "m").isEmpty)
        #expect(!SchemaChecker.problems(.object(["amount": "1.234", "currency": "EUR"]), Money.jsonSchema, at: "p").isEmpty)
    }

    @Test("Describe answers the document, without a token")
    func describeThroughRouter() async throws {
        var router = Router()
        router.register(ReflectionService())
        let path = Reflection.describe.descriptor.path
        let route = try #require(router.route(for: path))
        let stream = OneCallStream(path: path, json: "{}")
        await route.run(stream)
        let finished = try #require(stream.finished.first)
        #expect(finished.trailers.code == .ok)
        let bytes = try #require(finished.lastMessage)
        #expect(try JSONCodec().decode(ContractDocument.self, from: bytes) == CatalogContract.document)
    }
}

/// A tiny structural JSON Schema checker: `type`, `enum`, `const`, `pattern`, `anyOf`,
/// `required`, no unknown key where `properties` is given, `items`, `minimum`, `maximum`.
enum SchemaChecker {
    static func problems(_ value: JSONValue, _ schema: JSONValue, at path: String) -> [String] {
        guard case .object(let rules) = schema else { return ["\(path): schema is not an object"] }
        var problems: [String] = []
        if case .array(let branches)? = rules["anyOf"] {
            if !branches.contains(where: { Self.problems(value, $0, at: path).isEmpty }) {
                problems.append("\(path): matches no anyOf branch")
            }
        }
        if let type = rules["type"]?.stringValue, !matches(value, type: type) {
            return problems + ["\(path): expected \(type), got \(value)"]
        }
        if case .array(let allowed)? = rules["enum"], !allowed.contains(value) {
            problems.append("\(path): \(value) is not one of \(allowed)")
        }
        if let constant = rules["const"], constant != value {
            problems.append("\(path): \(value) is not \(constant)")
        }
        if let pattern = rules["pattern"]?.stringValue, case .string(let text) = value {
            if let regex = try? Regex(pattern) {
                if (try? regex.firstMatch(in: text)) == nil { problems.append("\(path): '\(text)' does not match \(pattern)") }
            } else {
                problems.append("\(path): bad pattern \(pattern)")
            }
        }
        if let number = value.doubleValue {
            if let minimum = rules["minimum"]?.doubleValue, number < minimum { problems.append("\(path): below \(minimum)") }
            if let maximum = rules["maximum"]?.doubleValue, number > maximum { problems.append("\(path): above \(maximum)") }
        }
        if case .object(let fields) = value {
            if case .array(let required)? = rules["required"] {
                for name in required.compactMap(\.stringValue) where fields[name] == nil {
                    problems.append("\(path): required key '\(name)' is missing")
                }
            }
            if case .object(let properties)? = rules["properties"] {
                for (key, field) in fields {
                    if let property = properties[key] {
                        problems += Self.problems(field, property, at: "\(path).\(key)")
                    } else {
                        problems.append("\(path): unknown key '\(key)'")
                    }
                }
            }
        }
        if case .array(let elements) = value, let items = rules["items"] {
            for (index, element) in elements.enumerated() {
                problems += Self.problems(element, items, at: "\(path)[\(index)]")
            }
        }
        return problems
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("number", .number),
            ("number", .integer), ("integer", .integer):
            true
        case ("integer", .number(let number)):
            number.rounded() == number
        default:
            false
        }
    }
}
