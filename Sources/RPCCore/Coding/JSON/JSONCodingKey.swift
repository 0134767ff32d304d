/// The keys the encoder makes up for coding paths: array indices and `super`, spelled as
/// Foundation's encoder spells them.
struct JSONCodingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "Index \(intValue)"
        self.intValue = intValue
    }

    /// The key of `superEncoder()` in a keyed container.
    static let `super` = JSONCodingKey(stringValue: "super")
}
