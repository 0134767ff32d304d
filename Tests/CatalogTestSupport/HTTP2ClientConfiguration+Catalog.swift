import CatalogAPI
import RPCHTTP2

extension HTTP2ClientConfiguration {
    /// The defaults, reading error details under the catalog's names, as `CatalogClient` does.
    package static var catalog: HTTP2ClientConfiguration {
        var configuration = HTTP2ClientConfiguration.defaults
        configuration.errorDetailNames = .catalog
        return configuration
    }
}
