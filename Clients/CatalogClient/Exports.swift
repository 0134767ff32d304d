// `import CatalogClient` is enough to use the client: the messages (`Item`, `Category`,
// `FilterState`…) come from CatalogAPI, `RPCError`, `CallOptions` and `Metadata` from RPCCore,
// and the TLS settings `ClientTLS` and `CertificateFiles` from RPCHTTP2.
@_exported import CatalogAPI
@_exported import RPCCore
@_exported import struct RPCHTTP2.CertificateFiles
@_exported import struct RPCHTTP2.ClientTLS
