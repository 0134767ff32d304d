import CNGHTTP2

/// A header block laid out for nghttp2 once and kept for the life of the process, so that
/// nghttp2 takes its names and values without copying them (`NGHTTP2_NV_FLAG_NO_COPY_*`):
/// for the blocks most calls answer with. nghttp2 may read one after the call that handed it
/// over, so it is never freed: make one only as a static constant.
package final class PreparedHeaderBlock: @unchecked Sendable {  // immutable once made
    package let fields: UnsafeBufferPointer<nghttp2_nv>

    package init(permanent headers: [(name: String, value: String)]) {
        let fields = UnsafeMutableBufferPointer<nghttp2_nv>.allocate(capacity: headers.count)
        for (index, (name, value)) in headers.enumerated() {
            let (name, value) = (Self.permanentBytes(of: name), Self.permanentBytes(of: value))
            fields.initializeElement(
                at: index,
                to: nghttp2_nv(
                    name: name.baseAddress, value: value.baseAddress, namelen: name.count, valuelen: value.count,
                    flags: UInt8(NGHTTP2_NV_FLAG_NO_COPY_NAME.rawValue | NGHTTP2_NV_FLAG_NO_COPY_VALUE.rawValue)))
        }
        self.fields = UnsafeBufferPointer(fields)
    }

    private static func permanentBytes(of text: String) -> UnsafeMutableBufferPointer<UInt8> {
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, text.utf8.count))
        _ = bytes.initialize(fromContentsOf: text.utf8)
        return UnsafeMutableBufferPointer(rebasing: bytes[..<text.utf8.count])
    }
}
