// The client's connections, so that `import RPCHTTP2` serves both ends as it always has.
@_exported import RPCHTTP2Client

// The call layer's types that a server's configuration names.
@_exported import struct RPCCallLayer.HTTPResource
@_exported import struct RPCCallLayer.RateLimit
