/// A price: a decimal amount as a string (never a float) and an ISO 4217 currency.
///
/// ```json
/// {"amount": "990.00", "currency": "EUR"}
/// ```
public struct Money: Codable, Sendable, Hashable {
    /// The amount, e.g. `"990.00"`.
    public var amount: String
    /// The currency code, e.g. `"EUR"`.
    public var currency: String

    public init(amount: String, currency: String) {
        self.amount = amount
        self.currency = currency
    }
}
