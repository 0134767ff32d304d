import ArgumentParser
import CatalogCLI
import CatalogKit

// The contract's string enums as option values; their cases are also their completions.
extension OutputFormat: ExpressibleByArgument {}
extension ItemSort: ExpressibleByArgument {}
extension CategorySort: ExpressibleByArgument {}
extension DeleteItemsPolicy: ExpressibleByArgument {}
extension ImportMode: ExpressibleByArgument {}
extension FilterDelivery: ExpressibleByArgument {}
extension FilterSource: ExpressibleByArgument {}
