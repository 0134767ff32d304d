/// The three high bits of a CBOR data item's initial byte (RFC 8949 §3.1).
enum CBORMajorType: UInt8 {
    case unsigned = 0
    case negative = 1
    case bytes = 2
    case text = 3
    case array = 4
    case map = 5
    case tag = 6
    case simpleOrFloat = 7
}
