// The client's connections, so that `import RPCHTTP2` serves both ends as it always has.
@_exported import RPCHTTP2Client
