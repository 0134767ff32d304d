import RPCCore
import Testing

@Suite("StatusCode")
struct StatusCodeTests {
    static let all: [(StatusCode, Int, String)] = [
        (.ok, 0, "OK"), (.cancelled, 1, "CANCELLED"), (.unknown, 2, "UNKNOWN"),
        (.invalidArgument, 3, "INVALID_ARGUMENT"), (.deadlineExceeded, 4, "DEADLINE_EXCEEDED"),
        (.notFound, 5, "NOT_FOUND"), (.alreadyExists, 6, "ALREADY_EXISTS"),
        (.permissionDenied, 7, "PERMISSION_DENIED"), (.resourceExhausted, 8, "RESOURCE_EXHAUSTED"),
        (.failedPrecondition, 9, "FAILED_PRECONDITION"), (.aborted, 10, "ABORTED"),
        (.outOfRange, 11, "OUT_OF_RANGE"), (.unimplemented, 12, "UNIMPLEMENTED"),
        (.internalError, 13, "INTERNAL"), (.unavailable, 14, "UNAVAILABLE"), (.dataLoss, 15, "DATA_LOSS"),
        (.unauthenticated, 16, "UNAUTHENTICATED"),
    ]

    @Test("has the canonical number and name for every code", arguments: all)
    func canonical(code: StatusCode, number: Int, name: String) {
        #expect(code.rawValue == number)
        #expect(code.name == name)
        #expect(code.description == name)
        #expect(StatusCode(rawValue: number) == code)
        #expect(StatusCode(name: name) == code)
    }

    @Test("rejects numbers outside 0...16", arguments: [-1, 17, 99, Int.max, Int.min])
    func invalidNumber(number: Int) {
        #expect(StatusCode(rawValue: number) == nil)
    }

    @Test("rejects names that are not canonical", arguments: ["", "not_found", "NotFound", "INTERNAL_ERROR", " OK", "FOO"])
    func invalidName(name: String) {
        #expect(StatusCode(name: name) == nil)
    }
}
