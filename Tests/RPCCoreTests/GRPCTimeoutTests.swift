import RPCCore
import Testing
import TestSupport

@Suite("GRPCTimeout")
struct GRPCTimeoutTests {
    /// The length of one of each unit.
    static let units: [(unit: Character, length: Duration)] = [
        ("n", .nanoseconds(1)), ("u", .microseconds(1)), ("m", .milliseconds(1)),
        ("S", .seconds(1)), ("M", .seconds(60)), ("H", .seconds(3_600)),
    ]

    /// The longest duration the header can express: 99999999H.
    static let longest = Duration.seconds(99_999_999 * 3_600)

    @Test("parses every unit", arguments: [
        ("1H", Duration.seconds(3_600)),
        ("2M", .seconds(120)),
        ("3S", .seconds(3)),
        ("4m", .milliseconds(4)),
        ("5u", .microseconds(5)),
        ("6n", .nanoseconds(6)),
        ("0S", .zero),
        ("00000010m", .milliseconds(10)),
        ("99999999H", .seconds(99_999_999 * 3_600)),
        ("99999999n", .nanoseconds(99_999_999)),
    ])
    func parse(text: String, expected: Duration) {
        #expect(GRPCTimeout.parse(text) == expected)
    }

    @Test("rejects malformed values", arguments: [
        "", "S", "10", "123456789S", "100000000n", "10x", "10h", "10s", "-5S", "+5S", " 5S", "5S ",
        "5 S", "1.5S", "１S", "5SS", "S5",
    ])
    func rejects(text: String) {
        #expect(GRPCTimeout.parse(text) == nil)
    }

    @Test("formats with the finest unit that fits in 8 digits", arguments: [
        (Duration.nanoseconds(1), "1n"),
        (.nanoseconds(99_999_999), "99999999n"),
        (.nanoseconds(100_000_000), "100000u"),
        (.nanoseconds(100_000_001), "100001u"),
        (.seconds(1), "1000000u"),
        (.seconds(100), "100000m"),
        (.seconds(99_999_999), "99999999S"),
        (.seconds(100_000_000), "1666667M"),
        (.seconds(99_999_999 * 3_600), "99999999H"),
        (Duration(secondsComponent: 0, attosecondsComponent: 1), "1n"),
        (Duration(secondsComponent: 10_000_000, attosecondsComponent: 1_000_000_000), "10000001S"),
    ])
    func format(duration: Duration, expected: String) {
        #expect(GRPCTimeout.format(duration) == expected)
    }

    @Test("formats zero and negative durations as 1n", arguments: [Duration.zero, .nanoseconds(-1), .seconds(-5), .milliseconds(-1_500)])
    func nonPositive(duration: Duration) {
        #expect(GRPCTimeout.format(duration) == "1n")
    }

    @Test("caps durations beyond 99999999H")
    func cap() {
        #expect(GRPCTimeout.format(Self.longest + .nanoseconds(1)) == "99999999H")
        #expect(GRPCTimeout.format(.seconds(Int64.max)) == "99999999H")
    }

    @Test("never formats a duration shorter than it is, and rounds up by less than one unit", arguments: 0..<200 as Range<UInt64>)
    func neverRoundsDown(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        // Spread the durations over every magnitude, from attoseconds to the longest value.
        let magnitude = rng.int(in: 0...12)
        var seconds = Int64.random(in: 0...Int64(pow10(magnitude)), using: &rng)
        if rng.int(in: 0...2) == 0 {
            seconds -= seconds % 3_600  // a whole number of every unit, where rounding errors show
        }
        seconds = min(seconds, Self.longest.components.seconds - 1)
        let attoseconds: Int64 =
            switch rng.int(in: 0...3) {
            case 0: 0
            case 1: Int64.random(in: 0..<1_000_000_000, using: &rng) * 1_000_000_000  // whole nanoseconds
            case 2: Int64.random(in: 1...1_000, using: &rng) * 1_000_000_000  // just past a whole second
            default: Int64.random(in: 0..<1_000_000_000_000_000_000, using: &rng)
            }
        let duration = Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)

        let text = GRPCTimeout.format(duration)
        #expect(text.count <= 9)
        let parsed = try #require(GRPCTimeout.parse(text), "\(text) must parse")
        #expect(parsed >= duration, "\(text) for \(duration)")

        let unit = try #require(Self.units.firstIndex { $0.unit == text.last })
        guard duration > .zero else { return }
        #expect(parsed - duration < Self.units[unit].length, "\(text) for \(duration) rounds up by less than 1\(Self.units[unit].unit)")
        if unit > 0 {
            // A finer unit would have needed more than 8 digits.
            #expect(duration > Self.units[unit - 1].length * 99_999_999, "\(text) for \(duration) is not the finest unit")
        }
    }

    private func pow10(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }
}
