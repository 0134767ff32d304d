import CZlib
import RPCCore

/// gzip compression of whole messages through zlib, for `grpc-encoding: gzip`.
package enum Gzip {
    /// Compresses `bytes` into a gzip member.
    package static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        let status = CZlib_deflateInit2(&stream, Z_DEFAULT_COMPRESSION, 15 + 16)
        precondition(status == Z_OK, "deflateInit2 failed: \(status)")
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        var input = bytes
        let produced = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = UInt32(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = UInt32(outputBuffer.count)
                let result = deflate(&stream, Z_FINISH)
                precondition(result == Z_STREAM_END, "deflate with a deflateBound buffer must finish: \(result)")
                return outputBuffer.count - Int(stream.avail_out)
            }
        }
        output.removeLast(output.count - produced)
        return output
    }

    /// Decompresses a gzip member, failing with RESOURCE_EXHAUSTED past `limit` bytes of
    /// output and with INTERNAL when the data is not valid gzip.
    package static func decompress(_ bytes: [UInt8], limit: Int) throws(RPCError) -> [UInt8] {
        var stream = z_stream()
        guard CZlib_inflateInit2(&stream, 15 + 16) == Z_OK else {
            throw RPCError(.internalError, "cannot start gzip decompression")
        }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: min(max(bytes.count * 4, 1024), 64 * 1024))
        let result: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            while true {
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkBuffer.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, chunkBuffer.count - Int(stream.avail_out))
                }
                if output.count + produced > limit { return Z_MEM_ERROR }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END: return stream.avail_in == 0 ? Z_STREAM_END : Z_DATA_ERROR
                case Z_OK: continue
                case Z_BUF_ERROR where stream.avail_in == 0: return Z_BUF_ERROR
                case Z_BUF_ERROR: continue
                default: return status
                }
            }
        }
        switch result {
        case Z_STREAM_END:
            return output
        case Z_MEM_ERROR:
            throw RPCError(.resourceExhausted, "decompressed message is larger than the limit of \(limit) bytes")
        default:
            throw RPCError(.internalError, "message is not valid gzip data")
        }
    }
}
