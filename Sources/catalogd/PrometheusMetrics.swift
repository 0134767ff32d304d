import CoreMetrics
import Prometheus

/// The Prometheus backend of `--metrics-address`.
enum PrometheusMetrics {
    /// Call durations: 100 µs to 10 s, finer than swift-prometheus's default (5 ms and up),
    /// since most calls take well under a millisecond.
    static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2500),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    /// Bootstraps `MetricsSystem` with a fresh registry and returns it. Once per process,
    /// before the server is made, so that its metrics go to the registry.
    static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = durationBuckets
        MetricsSystem.bootstrap(factory)
        return registry
    }
}
