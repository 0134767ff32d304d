import CatalogKit

extension CatalogClient.Configuration {
    /// Short backoffs, and enough read attempts to outlast the longest reconnect backoff: for
    /// tests whose server goes away and comes back (or another takes its place).
    static var quickReconnect: Self {
        var configuration = Self.defaults
        configuration.retry = RetryPolicy(maxAttempts: 8, backoff: Backoff(initial: .milliseconds(25), maximum: .milliseconds(100)))
        configuration.reconnectBackoff = Backoff(initial: .milliseconds(50), maximum: .milliseconds(200))
        return configuration
    }
}
