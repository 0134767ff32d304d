import Foundation

/// The text normalizations the store searches and sorts with.
enum Folding {
    /// Lower-cased, diacritics removed: what `item.searchText` and `item.titleKey` hold.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    /// A decimal amount (`"990.00"`, `"-3.5"`, `"12"`) in hundredths, digits past the second decimal
    /// truncated; `nil` when it is not a decimal number or does not fit.
    static func hundredths(_ amount: String) -> Int64? {
        var text = Substring(amount)
        var negative = false
        if text.first == "-" {
            negative = true
            text = text.dropFirst()
        } else if text.first == "+" {
            text = text.dropFirst()
        }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty),
            (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber })
        else { return nil }
        var value: Int64 = 0
        let cents = fraction.prefix(2).padding(toLength: 2, withPad: "0", startingAt: 0)
        for digit in whole + cents {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = shifted.addingReportingOverflow(Int64(digit.wholeNumberValue ?? 0))
            if overflow1 || overflow2 { return nil }
            value = added
        }
        return negative ? -value : value
    }
}
