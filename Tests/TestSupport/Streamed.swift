extension Sequence where Element: Sendable {
    /// The elements as an `AsyncStream`, all buffered at once: for a request stream of a test.
    package var streamed: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
