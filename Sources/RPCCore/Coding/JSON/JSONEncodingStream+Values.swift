import Foundation

extension JSONEncodingStream {
    /// Writes `value` as the single value of the empty `slot` (a single-value container's value,
    /// or the top-level value).
    func writeValue<Value: Encodable>(_ value: Value, in slot: Slot) throws {
        guard let mark = beginSingleValue(in: slot) else { return }
        do {
            if try writeScalar(value, codingPath: codingPath(to: slot)) {
                markScalar(slot)
            } else {
                try value.encode(to: JSONSlotEncoder(stream: self, slot: slot))
                close(above: slot.depth)
            }
        } catch {
            rollBack(to: mark)
            throw error
        }
    }

    /// Writes `value` as the value of the entry or element of `parent` begun at `mark`; when
    /// encoding it throws, the entry is taken back out.
    func writeMember<Value: Encodable>(_ value: Value, step: @autoclosure () -> Step, in parent: Slot, since mark: Mark) throws {
        do {
            if try writeScalar(value, codingPath: codingPath(to: parent) + [step().key]) { return }
            let child = push(step())
            try value.encode(to: JSONSlotEncoder(stream: self, slot: child))
            close(above: parent.depth)
        } catch {
            rollBack(to: mark)
            throw error
        }
    }

    /// Writes `value` directly when its type is one JSON writes as a scalar: strings, numbers,
    /// Booleans, and `Date` (RFC 3339), `Data` (base64), `URL` (its absolute string) and
    /// `Decimal`, as the codec's Foundation encoder writes them. False for any other type.
    private func writeScalar<Value: Encodable>(_ value: Value, codingPath: @autoclosure () -> [any CodingKey]) throws -> Bool {
        if let string = cast(value, to: String.self) {
            output.appendString(string)
        } else if let integer = cast(value, to: Int64.self) {
            output.appendInteger(integer)
        } else if let integer = cast(value, to: Int.self) {
            output.appendInteger(integer)
        } else if let bool = cast(value, to: Bool.self) {
            output.append(bool ? "true" : "false")
        } else if let date = cast(value, to: Date.self) {
            output.appendDate(date)
        } else if let double = cast(value, to: Double.self) {
            try Self.checkFinite(double, codingPath: codingPath())
            output.appendNumber(double)
        } else if let float = cast(value, to: Float.self) {
            try Self.checkFinite(float, codingPath: codingPath())
            output.appendNumber(float)
        } else if let integer = cast(value, to: Int32.self) {
            output.appendInteger(integer)
        } else if let integer = cast(value, to: UInt64.self) {
            output.appendInteger(integer)
        } else if let integer = cast(value, to: UInt.self) {
            output.appendInteger(integer)
        } else if let integer = cast(value, to: UInt32.self) {
            output.appendInteger(integer)
        } else if let integer = cast(value, to: Int16.self) {
            output.appendInteger(integer)
        } else if let integer = cast(value, to: UInt16.self) {
            output.appendInteger(integer)
        } else if let integer = cast(value, to: Int8.self) {
            output.appendInteger(integer)
        } else if let integer = cast(value, to: UInt8.self) {
            output.appendInteger(integer)
        } else if let integer = cast(value, to: Int128.self) {
            output.appendInteger(integer)
        } else if let integer = cast(value, to: UInt128.self) {
            output.appendInteger(integer)
        } else if let data = cast(value, to: Data.self) {
            output.appendString(data.base64EncodedString())
        } else if let url = cast(value, to: URL.self) {
            output.appendString(url.absoluteString)
        } else if let decimal = cast(value, to: Decimal.self) {
            output.append(contentsOf: decimal.description)
        } else {
            return false
        }
        return true
    }

    /// Throws Foundation's error for a NaN or an infinity, which JSON cannot represent.
    static func checkFinite<Number: BinaryFloatingPoint>(_ value: Number, codingPath: @autoclosure () -> [any CodingKey]) throws {
        guard !value.isFinite else { return }
        throw EncodingError.invalidValue(
            value,
            EncodingError.Context(codingPath: codingPath(), debugDescription: "Unable to encode \(Number.self).\(value) directly in JSON.")
        )
    }
}

/// `value` as a `Target` when that is its type.
@inline(__always)
private func cast<Value, Target>(_ value: Value, to target: Target.Type) -> Target? {
    Value.self == Target.self ? unsafeBitCast(value, to: Target.self) : nil
}
