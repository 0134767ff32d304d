import CatalogAPI
import Foundation
import RPCCore
import Testing

/// Every message of the contract through the CBOR codec: what JSON carries, CBOR carries the
/// same, in deterministic bytes.
@Suite("CBOR: every contract message")
struct CBORContractTests {
    /// Takes a sample's JSON through `type`, CBOR and back, and answers the JSON it ends as.
    static func roundTrip<Message: Codable>(_ json: Data, as type: Message.Type) throws -> Data {
        let message = try JSONDecoder.contract.decode(Message.self, from: json)
        let cbor = try CBORCodec.shared.encode(message)
        #expect(CBORWriter.encode(try CBORReader.decode(cbor)) == cbor, "\(Message.self) is not deterministic")
        return Data(try JSONCodec.shared.encode(try CBORCodec.shared.decode(Message.self, from: cbor)))
    }

    @Test("every request and response reads back from CBOR as it was, in deterministic bytes")
    func roundTrip() throws {
        for (samples, response) in [(try ContractSchemaTests.sampleRequests(), false), (try ContractSchemaTests.sampleResponses(), true)] {
            let types = ContractSchemaTests.messageTypes()
            for (path, sample) in samples {
                let type = try #require(types[path], "no message type for \(path)")
                let json = try JSONEncoder().encode(sample)
                let messageType = response ? type.response : type.request
                let back = try ContractSchemaTests.jsonValue(try Self.roundTrip(json, as: messageType))
                #expect(back == sample, "\(path) \(response ? "response" : "request")")
            }
        }
        #expect(try ContractSchemaTests.sampleRequests().count == CatalogContract.methods.count)
    }

    @Test("every kind of Watch event reads back from CBOR as it was")
    func watchEvents() throws {
        for event in ContractSchemaTests.watchEvents {
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
