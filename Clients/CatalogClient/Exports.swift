// `import CatalogClient` is enough to use the client: the messages (`Item`, `Category`,
// `FilterState`…) come from CatalogAPI, and `RPCError`, `CallOptions` and `Metadata` from RPCCore.
@_exported import CatalogAPI
@_exported import RPCCore
