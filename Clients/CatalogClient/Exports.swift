// `import CatalogClient` is enough to use the client: it brings the messages (`Item`,
// `Category`, `FilterState`…, all of CatalogAPI) and, from the layers below, only the types
// the client's own API names. Server types (`Router`, `ServerContext`…) stay out, so that a
// service that also imports Hummingbird or GRPCCore sees one `Router`. Where another module
// declares one of the names below (GRPCCore's `Metadata`, `RPCError`, `CallOptions`), the
// unqualified name is the one re-exported here by name, and the module's name picks either:
// `GRPCCore.Metadata`, `RPCCore.Metadata`.
@_exported import CatalogAPI
@_exported import struct RPCCore.CallOptions
@_exported import protocol RPCCore.ClientTransport
@_exported import struct RPCCore.CompressionAlgorithm
@_exported import struct RPCCore.ErrorDetail
@_exported import enum RPCCore.JSONValue
@_exported import struct RPCCore.Metadata
@_exported import struct RPCCore.RPCError
@_exported import struct RPCCore.StatusCode
@_exported import struct RPCHTTP2.CertificateFiles
@_exported import struct RPCHTTP2.ClientTLS
@_exported import struct RPCHTTP2.HTTP2ClientConfiguration
