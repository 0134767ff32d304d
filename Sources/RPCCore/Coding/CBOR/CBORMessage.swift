/// A message that writes its own CBOR, straight into the codec's buffer: generated from the
/// message's description, with the bytes of its `Encodable` conformance through `CBORCodec`.
package protocol CBORWritable: Encodable {
    func writeCBOR(to writer: inout CBORWriter)
}

/// A message that reads its own CBOR, without building a `CBORValue` first: generated from the
/// message's description. It accepts and refuses exactly what its `Decodable` conformance
/// through `CBORCodec` does, with the same errors.
package protocol CBORReadable: Decodable {
    init(cbor reader: inout CBORReader) throws(CBORMessageError)
}
