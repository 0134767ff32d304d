import ArgumentParser
import RPCHTTP2

/// The value of `--max-call-rate`: `RATE[,BURST]`, new calls per second on one connection and
/// how many may come at once (default RATE); `0` is no limit.
struct CallRateOption: ExpressibleByArgument {
    /// `nil`: no limit.
    var limit: RateLimit?

    init?(argument: String) {
        let numbers = argument.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(numbers.count), let rate = numbers[0], rate >= 0 else { return nil }
        let burst = numbers.count == 2 ? numbers[1] : max(rate, 1)
        guard let burst, burst >= 1 else { return nil }
        limit = rate == 0 ? nil : RateLimit(burst: burst, perSecond: rate)
    }

    var defaultValueDescription: String {
        guard let limit else { return "0" }
        return "\(limit.perSecond),\(limit.burst)"
    }
}
