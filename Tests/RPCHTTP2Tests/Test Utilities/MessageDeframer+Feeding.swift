import RPCCore
import RPCHTTP2
@testable import RPCHTTP2Core
@testable import RPCFraming

extension MessageDeframer {
    /// Appends each chunk and drains every complete message after each append, the way a
    /// transport does. Odd chunks go through the `UnsafeRawBufferPointer` overload so that
    /// both entry points are exercised.
    mutating func feed(_ chunks: [[UInt8]]) throws(RPCError) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        for (index, chunk) in chunks.enumerated() {
            if index.isMultiple(of: 2) {
                try append(chunk)
            } else {
                let appended = chunk.withUnsafeBytes { buffer in
                    Result { () throws(RPCError) in try append(buffer) }
                }
                try appended.get()
            }
            while let message = try next() {
                messages.append(message)
            }
        }
        return messages
    }
}
