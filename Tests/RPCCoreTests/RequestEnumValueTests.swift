import CatalogAPI
import RPCCore
import Testing

/// A request names wire-enum values the server knows: any other value is refused with
/// INVALID_ARGUMENT naming the field, the error pinned here word for word.
@Suite("Requests: an unknown enum value is INVALID_ARGUMENT naming the field")
struct RequestEnumValueTests {
    /// The error the codec answers for `json` as a `Message`.
    private func decodingError<Message: Decodable>(_: Message.Type, _ json: String) -> RPCError? {
        do {
            _ = try JSONCodec().decode(Message.self, from: Array(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    private func expectInvalidField<Message: Decodable>(
        _ type: Message.Type, _ json: String, field: String, message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = decodingError(type, json)
        #expect(error?.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
        #expect(error?.detail == ErrorDetail(reason: "invalidField", field: field), sourceLocation: sourceLocation)
    }

    @Test("SetPresentation: an unknown presentation, null, a number")
    func presentation() {
        expectInvalidField(
            SetPresentationRequest.self, #"{"filterId": "f", "presentation": "sideways"}"#, field: "presentation",
            message: "field 'presentation' is invalid: Cannot initialize FilterPresentation from invalid String value sideways")
        expectInvalidField(
            SetPresentationRequest.self, #"{"filterId": "f", "presentation": null}"#, field: "presentation",
            message: "field 'presentation' must be a string, not null")
        expectInvalidField(
            SetPresentationRequest.self, #"{"filterId": "f", "presentation": 1}"#, field: "presentation",
            message: "field 'presentation' must be a string")
        expectInvalidField(
            SetPresentationRequest.self, #"{"filterId": "f"}"#, field: "presentation", message: "field 'presentation' is required")
    }

    @Test("Define: an unknown source; null is no source")
    func source() throws {
        expectInvalidField(
            DefineFilterRequest.self, #"{"filterId": "f", "title": "T", "source": "tags"}"#, field: "source",
            message: "field 'source' is invalid: Cannot initialize FilterSource from invalid String value tags")
        let request = try JSONCodec().decode(DefineFilterRequest.self, from: Array(#"{"filterId": "f", "title": "T", "source": null}"#.utf8))
        #expect(request == DefineFilterRequest(filterId: "f", title: "T"))
        let categories = try JSONCodec().decode(DefineFilterRequest.self, from: Array(#"{"filterId": "f", "title": "T", "source": "categories"}"#.utf8))
        #expect(categories.source == .categories)
    }

    @Test("the request-only enums: sorts, delete policy, direction, import mode, delivery")
    func requestOnlyEnums() {
        expectInvalidField(
            ListCategoriesRequest.self, #"{"sort": "colour"}"#, field: "sort",
            message: "field 'sort' is invalid: Cannot initialize CategorySort from invalid String value colour")
        expectInvalidField(
            ListItemsRequest.self, #"{"sort": "rating"}"#, field: "sort",
            message: "field 'sort' is invalid: Cannot initialize ItemSort from invalid String value rating")
        expectInvalidField(
            DeleteCategoryRequest.self, #"{"id": 1, "items": "archive"}"#, field: "items",
            message: "field 'items' is invalid: Cannot initialize DeleteItemsPolicy from invalid String value archive")
        expectInvalidField(
            MoveCategoryRequest.self, #"{"id": 1, "direction": "left"}"#, field: "direction",
            message: "field 'direction' is invalid: Cannot initialize MoveDirection from invalid String value left")
        expectInvalidField(
            ImportCategoriesRequest.self, #"{"categories": [], "mode": "append"}"#, field: "mode",
            message: "field 'mode' is invalid: Cannot initialize ImportMode from invalid String value append")
        expectInvalidField(
            WatchFilterRequest.self, #"{"filterId": "f", "delivery": "batched"}"#, field: "delivery",
            message: "field 'delivery' is invalid: Cannot initialize FilterDelivery from invalid String value batched")
    }
}
