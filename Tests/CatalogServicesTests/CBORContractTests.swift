import CatalogAPI
import Foundation
import RPCCore
import Testing

/// Every message of the contract through the CBOR codec: what JSON carries, CBOR carries the
/// same, in deterministic bytes.
@Suite("CBOR: every contract message")
struct CBORContractTests {
    /// For each method path, a function taking a sample's JSON (the request or the response)
    /// through its Swift type, CBOR and back, and answering the JSON it ends as.
    static func roundTrips(response: Bool) -> [String: (Data) throws -> Data] {
        var trips: [String: (Data) throws -> Data] = [:]
        func trip<Message: Codable>(_ type: Message.Type) -> (Data) throws -> Data {
            { json in
                let message = try JSONDecoder.contract.decode(Message.self, from: json)
                let cbor = try CBORCodec.shared.encode(message)
                #expect(CBORWriter.encode(try CBORReader.decode(cbor)) == cbor, "\(Message.self) is not deterministic")
                return Data(try JSONCodec.shared.encode(try CBORCodec.shared.decode(Message.self, from: cbor)))
            }
        }
        func add<Request, Response>(_ method: UnaryMethod<Request, Response>) {
            trips[method.descriptor.path] = response ? trip(Response.self) : trip(Request.self)
        }
        func add<Request, Response>(_ method: ServerStreamingMethod<Request, Response>) {
            trips[method.descriptor.path] = response ? trip(Response.self) : trip(Request.self)
        }
        add(CatalogService.listItems); add(CatalogService.getItem); add(CatalogService.createItem)
        add(CatalogService.updateItem); add(CatalogService.deleteItem)
        add(CategoriesService.list); add(CategoriesService.get); add(CategoriesService.create)
        add(CategoriesService.update); add(CategoriesService.delete); add(CategoriesService.move)
        add(CategoriesService.merge); add(CategoriesService.assignItems); add(CategoriesService.moveItems)
        add(CategoriesService.stats); add(CategoriesService.palette); add(CategoriesService.export)
        add(CategoriesService.import); add(FiltersService.define); add(FiltersService.get); add(FiltersService.list)
        add(FiltersService.select); add(FiltersService.setPresentation); add(FiltersService.togglePresentation)
        add(FiltersService.delete); add(FiltersService.watch); add(Reflection.describe); add(Health.check); add(Health.watch)
        return trips
    }

    @Test("every request and response reads back from CBOR as it was, in deterministic bytes")
    func roundTrip() throws {
        for (samples, response) in [(try ContractSchemaTests.sampleRequests(), false), (try ContractSchemaTests.sampleResponses(), true)] {
            let trips = Self.roundTrips(response: response)
            for (path, sample) in samples {
                let trip = try #require(trips[path], "no message type for \(path)")
                let json = try JSONEncoder().encode(sample)
                let back = try ContractSchemaTests.jsonValue(try trip(json))
                #expect(back == sample, "\(path) \(response ? "response" : "request")")
            }
        }
        #expect(try ContractSchemaTests.sampleRequests().count == CatalogContract.methods.count)
    }

    @Test("every kind of Watch event reads back from CBOR as it was")
    func watchEvents() throws {
        let events = [
            FilterEvent(kind: .snapshot, revision: 42, state: ContractSchemaTests.filterState),
            FilterEvent(kind: .snapshot, revision: 42, state: ContractSchemaTests.filterState, reset: true),
            FilterEvent(kind: .synced, revision: 42),
            FilterEvent(kind: .change, revision: 43, previousRevision: 42, state: ContractSchemaTests.filterState),
            FilterEvent(kind: .heartbeat, revision: 43),
        ]
        for event in events {
            #expect(try CBORCodec.shared.decode(FilterEvent.self, from: try CBORCodec.shared.encode(event)) == event)
        }
    }
}

extension JSONDecoder {
    /// Reads the contract's JSON as the server does (RFC 3339 timestamps).
    static var contract: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
