// The certificate files of `ClientTLS` and the error that names a file at fault, shared with the server.
@_exported import struct RPCHTTP2Core.CertificateFiles
@_exported import struct RPCHTTP2Core.TLSFileError
