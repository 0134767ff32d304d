import RPCCore
import Testing

@Suite("CompressionAlgorithm")
struct CompressionAlgorithmTests {
    @Test("parses the supported grpc-encoding values")
    func parses() {
        #expect(CompressionAlgorithm(headerValue: "identity") == .identity)
        #expect(CompressionAlgorithm(headerValue: "gzip") == .gzip)
        #expect(CompressionAlgorithm.gzip.name == "gzip")
        #expect(CompressionAlgorithm.identity.description == "identity")
    }

    @Test("rejects unsupported values", arguments: ["", "deflate", "snappy", "zstd", "GZIP", "gzip "])
    func rejects(value: String) {
        #expect(CompressionAlgorithm(headerValue: value) == nil)
    }

    @Test("advertises every supported algorithm")
    func acceptEncoding() {
        #expect(CompressionAlgorithm.supported == [.identity, .gzip])
        #expect(CompressionAlgorithm.acceptEncodingHeader == "identity,gzip")
    }
}
