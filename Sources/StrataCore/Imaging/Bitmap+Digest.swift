// A 64-bit digest of a bitmap's size and pixels, for comparing frames across runs, machines and
// worker counts (`strata render --hash-frames`). Not cryptographic: it tells frames apart, it
// does not resist someone making two frames collide on purpose.
extension Bitmap {
    /// 16 hex digits; equal bitmaps give equal digests, and any changed byte changes it.
    public var digest: String {
        let value = pixels.withUnsafeBytes { Bitmap.digest64($0, seed: UInt64(width) &* 0x1_0000_0001 ^ UInt64(height)) }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Eight bytes at a time: each word is multiplied by an odd constant, folded into two lanes
    /// that rotate and multiply, and the lanes are mixed at the end (SplitMix64's finaliser).
    static func digest64(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var a: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ seed
        var b: UInt64 = 0xD1B5_4A32_D192_ED03 &+ UInt64(bytes.count)
        let words = bytes.count / 8
        var i = 0
        while i + 1 < words {
            let x = bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self) &* 0xFF51_AFD7_ED55_8CCD
            let y = bytes.loadUnaligned(fromByteOffset: i * 8 + 8, as: UInt64.self) &* 0xC4CE_B9FE_1A85_EC53
            a = ((a ^ x) << 31 | (a ^ x) >> 33) &* 0x9E37_79B9_7F4A_7C15
            b = ((b ^ y) << 29 | (b ^ y) >> 35) &* 0xBF58_476D_1CE4_E5B9
            i += 2
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        for k in (i * 8)..<bytes.count {
            tail |= UInt64(bytes[k]) << shift
            shift += 8
            if shift == 64 { a = (a ^ tail) &* 0x94D0_49BB_1331_11EB; tail = 0; shift = 0 }
        }
        a ^= tail &* 0xFF51_AFD7_ED55_8CCD
        var z = a ^ (b << 17 | b >> 47)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
