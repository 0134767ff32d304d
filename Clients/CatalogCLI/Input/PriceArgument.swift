import CatalogKit

/// A price given on the command line as `AMOUNT CURRENCY` (`"990.00 EUR"`, or `"EUR 990"`).
///
/// Only the shape is checked here; the server checks the amount (at most 2 decimals) and
/// the currency (3 letters) and names the field at fault.
package enum PriceArgument {
    /// The price `text` names, its currency upper-cased.
    ///
    /// - Throws: ``CLIFailure`` (usage) when `text` is not an amount and a currency.
    package static func parse(_ text: String) throws(CLIFailure) -> Money {
        let parts = text.split(whereSeparator: \.isWhitespace).map(String.init)
        let isAmount: (String) -> Bool = { $0.first?.isNumber == true }
        guard parts.count == 2, isAmount(parts[0]) != isAmount(parts[1]) else {
            throw .usage("the price '\(text)' is not AMOUNT CURRENCY, such as '990.00 EUR'")
        }
        let (amount, currency) = isAmount(parts[0]) ? (parts[0], parts[1]) : (parts[1], parts[0])
        return Money(amount: amount, currency: currency.uppercased())
    }
}
