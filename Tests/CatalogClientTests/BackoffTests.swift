import CatalogKit
import Testing

@Suite("Jittered exponential backoff")
struct BackoffTests {
    @Test("without jitter the delay doubles from the initial one up to the maximum")
    func exponential() {
        let backoff = Backoff(initial: .milliseconds(100), maximum: .milliseconds(500), jitter: 0)
        #expect((1...5).map { backoff.delay(afterFailures: $0) } == [
            .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500), .milliseconds(500),
        ])
    }

    @Test("jitter spreads each delay within ±jitter and actually varies", arguments: [1, 3, 10])
    func jitter(failures: Int) {
        let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(1), jitter: 0.2)
        let base = Backoff(initial: .milliseconds(100), maximum: .seconds(1), jitter: 0).delay(afterFailures: failures)
        let delays = (0..<200).map { _ in backoff.delay(afterFailures: failures) }
        #expect(delays.allSatisfy { $0 >= base * 0.8 && $0 <= base * 1.2 })
        #expect(Set(delays).count > 1)
    }

    @Test("a retry policy has at least one attempt")
    func policy() {
        #expect(RetryPolicy(maxAttempts: 0, backoff: .init(initial: .zero, maximum: .zero)).maxAttempts == 1)
        #expect(RetryPolicy.defaults.maxAttempts == 3)
    }
}
