// `import CatalogKit` is enough to use the client: it brings, by name, the messages and enums
// the client's API takes and returns, and from the layers below only the types that API names.
// The method descriptors, request envelopes and schema types of CatalogAPI stay out, and so do
// server types (`Router`, `ServerContext`…), so that a service that also imports Hummingbird
// or GRPCCore sees one `Router`. Where another module declares one of these names (an app's
// own `Category` or `Item`, GRPCCore's `Metadata`, Objective-C's `Category`), the module's
// name picks ours: `CatalogKit.Category`, `CatalogKit.Metadata`.
@_exported import struct CatalogAPI.AssignItemsResponse
@_exported import struct CatalogAPI.Category
@_exported import struct CatalogAPI.CreateItemRequest
@_exported import struct CatalogAPI.CategoryExport
@_exported import struct CatalogAPI.CategoryRecord
@_exported import enum CatalogAPI.CategorySort
@_exported import struct CatalogAPI.CategoryStats
@_exported import struct CatalogAPI.ContractDocument
@_exported import struct CatalogAPI.DeleteCategoryResponse
@_exported import enum CatalogAPI.DeleteItemsPolicy
@_exported import enum CatalogAPI.FieldUpdate
@_exported import enum CatalogAPI.FilterDelivery
@_exported import struct CatalogAPI.FilterEvent
@_exported import struct CatalogAPI.FilterOption
@_exported import enum CatalogAPI.FilterPresentation
@_exported import enum CatalogAPI.FilterSource
@_exported import struct CatalogAPI.FilterState
@_exported import enum CatalogAPI.ImportMode
@_exported import struct CatalogAPI.ImportCategoriesResponse
@_exported import struct CatalogAPI.ImportItemsResponse
@_exported import struct CatalogAPI.Item
@_exported import enum CatalogAPI.ItemSort
@_exported import struct CatalogAPI.ListItemsResponse
@_exported import struct CatalogAPI.MergeCategoriesResponse
@_exported import struct CatalogAPI.Money
@_exported import enum CatalogAPI.MoveDirection
@_exported import struct CatalogAPI.MoveItemsResponse
@_exported import struct CatalogAPI.ServingStatus
@_exported import struct RPCCore.CallOptions
@_exported import struct RPCCore.ClientCallContext
@_exported import protocol RPCCore.ClientInterceptor
@_exported import protocol RPCCore.ClientTransport
@_exported import struct RPCCore.CompressionAlgorithm
@_exported import struct RPCCore.ErrorDetail
@_exported import struct RPCCore.ErrorDetailNames
@_exported import enum RPCCore.JSONValue
@_exported import struct RPCCore.Metadata
@_exported import struct RPCCore.RPCError
@_exported import struct RPCCore.StatusCode
@_exported import struct RPCCore.UnaryResponse

#if canImport(RPCHTTP2Client)
@_exported import struct RPCHTTP2Client.CertificateFiles
@_exported import struct RPCHTTP2Client.ClientTLS
@_exported import struct RPCHTTP2Client.HTTP2ClientConfiguration
#endif
