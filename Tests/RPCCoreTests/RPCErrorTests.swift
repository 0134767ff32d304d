import RPCCore
import Testing

@Suite("RPCError")
struct RPCErrorTests {
    struct DomainError: RPCErrorConvertible {
        var rpcError: RPCError {
            RPCError(.alreadyExists, "name taken", detail: ErrorDetail(reason: "duplicateName", field: "name"))
        }
    }

    struct SecretError: Error, CustomStringConvertible {
        var description: String { "password=hunter2" }
    }

    @Test("never has the OK code")
    func neverOK() {
        #expect(RPCError(.ok, "fine?").code == .unknown)
        #expect(RPCError(.aborted, "x").code == .aborted)
    }

    @Test("describes itself with code, message, reason and field")
    func description() {
        let error = RPCError(.notFound, "no item 42", detail: ErrorDetail(reason: "notFound", field: "id"))
        #expect(error.description == "NOT_FOUND: no item 42 [notFound, field id]")
        #expect(RPCError(.internalError, "boom").description == "INTERNAL: boom")
        #expect(RPCError(.aborted, "x", detail: ErrorDetail(reason: "revisionMismatch")).description == "ABORTED: x [revisionMismatch]")
    }

    @Test("maps an RPCError to itself")
    func mapsRPCError() {
        let error = RPCError(.notFound, "no item", detail: ErrorDetail(reason: "notFound", details: ["id": 42]), metadata: ["x": "y"])
        #expect(RPCError(mapping: error) == error)
    }

    @Test("maps an RPCErrorConvertible to its RPCError")
    func mapsConvertible() {
        #expect(RPCError(mapping: DomainError()) == DomainError().rpcError)
    }

    @Test("maps CancellationError to CANCELLED")
    func mapsCancellation() {
        #expect(RPCError(mapping: CancellationError()).code == .cancelled)
    }

    @Test("maps any other error to UNKNOWN without leaking its description")
    func mapsOther() {
        let mapped = RPCError(mapping: SecretError())
        #expect(mapped.code == .unknown)
        #expect(!mapped.message.contains("hunter2"))
        #expect(mapped.detail == nil)
        #expect(mapped.cause is SecretError, "the error itself stays at hand as the cause, which is never sent")
    }

    @Test("keeps an underlying cause, which takes no part in equality or hashing")
    func cause() {
        let plain = RPCError(.unavailable, "store down")
        let caused = RPCError(.unavailable, "store down", cause: SecretError())
        #expect(plain.cause == nil)
        #expect(caused.cause is SecretError)
        #expect(caused == plain)
        #expect(Set([caused, plain]).count == 1)
        #expect(caused != RPCError(.unavailable, "store down", detail: ErrorDetail(reason: "x"), cause: SecretError()))
    }

    @Test("names its cause in its description")
    func causeInDescription() {
        struct Underlying: Error, CustomStringConvertible {
            var description: String { "disk I/O error" }
        }
        #expect(RPCError(.internalError, "store failure", cause: Underlying()).description == "INTERNAL: store failure (cause: disk I/O error)")
    }
}
