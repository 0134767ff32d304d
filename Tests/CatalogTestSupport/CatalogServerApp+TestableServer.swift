import CatalogServer
import TestSupport

extension CatalogServerApp: TestableServer {}
