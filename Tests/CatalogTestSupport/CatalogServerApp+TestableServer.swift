import CatalogServer
import HTTP2TestSupport

extension CatalogServerApp: TestableServer {}
