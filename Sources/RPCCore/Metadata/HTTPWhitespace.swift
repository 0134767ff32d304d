extension StringProtocol {
    /// The text without HTTP's optional whitespace (spaces and tabs) at either end, as header
    /// list items are read: without Foundation, whose trimming costs more than a request's
    /// whole parse.
    package func trimmingHTTPWhitespace() -> SubSequence {
        guard let first = firstIndex(where: { $0 != " " && $0 != "\t" }) else { return self[endIndex...] }
        let last = lastIndex(where: { $0 != " " && $0 != "\t" })!
        return self[first...last]
    }
}
