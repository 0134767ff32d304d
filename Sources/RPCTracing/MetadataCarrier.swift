import Instrumentation
import RPCCore

/// Writes a tracer's propagation fields (e.g. W3C `traceparent`) into a call's metadata.
struct MetadataInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout Metadata) {
        carrier.add(key, value)
    }
}

/// Reads a tracer's propagation fields from a call's metadata.
struct MetadataExtractor: Extractor {
    func extract(key: String, from carrier: Metadata) -> String? {
        carrier.first(key)
    }
}
