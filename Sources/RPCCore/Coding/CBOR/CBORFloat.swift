/// IEEE 754 half precision, which CBOR uses and Swift's `Float16` does not offer everywhere.
enum CBORFloat {
    /// The value of half-precision `bits`.
    static func double(halfBits bits: UInt16) -> Double {
        let exponent = Int((bits >> 10) & 0x1F)
        let mantissa = Double(bits & 0x3FF)
        let magnitude: Double =
            switch exponent {
            case 0: mantissa * 0x1p-24
            case 31: mantissa == 0 ? .infinity : .nan
            default: (mantissa + 1024) * Double(sign: .plus, exponent: exponent - 25, significand: 1)
            }
        return bits & 0x8000 == 0 ? magnitude : -magnitude
    }

    /// The half-precision bits that hold `value` exactly, if any; NaN as the quiet NaN `7e00`.
    static func halfBits(exactly value: Double) -> UInt16? {
        if value.isNaN { return 0x7E00 }
        let sign: UInt16 = value.sign == .minus ? 0x8000 : 0
        if value.isInfinite { return sign | 0x7C00 }
        if value == 0 { return sign }
        let magnitude = value.magnitude
        let exponent = Int(magnitude.exponent)
        if (-14...15).contains(exponent) {
            // Normal: at most 10 of the 52 fraction bits may be set.
            let fraction = magnitude.significandBitPattern
            guard fraction & ((1 << 42) - 1) == 0 else { return nil }
            return sign | UInt16(exponent + 15) << 10 | UInt16(fraction >> 42)
        }
        if (-24 ..< -14).contains(exponent) {
            // Subnormal: a whole number of 2⁻²⁴.
            let units = magnitude * 0x1p24
            guard units == units.rounded(.towardZero) else { return nil }
            return sign | UInt16(units)
        }
        return nil
    }
}
