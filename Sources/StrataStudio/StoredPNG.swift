// An uncompressed PNG (deflate "stored" blocks) of a frame, for the page: the pixels a decoder
// gets are exactly those of the PNG `strata still` writes — straight alpha computed with cairo's
// own rounding, ((c × 255 + a / 2) / a), 0 where alpha is 0 — but encoding takes a few
// milliseconds instead of the tens to hundreds that compressing a 1920×1080 frame takes, and on
// loopback the larger transfer costs less than the compression saved.
import Foundation
import Strata

enum StoredPNG {
    static func encode(_ bitmap: Bitmap) -> Data {
        let width = bitmap.width, height = bitmap.height
        let rowBytes = width * 4 + 1
        var raw = [UInt8](repeating: 0, count: rowBytes * height)
        bitmap.pixels.withUnsafeBufferPointer { src in
            raw.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    var o = y * rowBytes + 1  // filter byte 0 (none) first
                    var i = y * width * 4
                    for _ in 0..<width {
                        let a = UInt32(src[i + 3])
                        if a == 255 {
                            dst[o] = src[i]; dst[o + 1] = src[i + 1]; dst[o + 2] = src[i + 2]; dst[o + 3] = 255
                        } else if a != 0 {
                            dst[o] = UInt8((UInt32(src[i]) * 255 + a / 2) / a)
                            dst[o + 1] = UInt8((UInt32(src[i + 1]) * 255 + a / 2) / a)
                            dst[o + 2] = UInt8((UInt32(src[i + 2]) * 255 + a / 2) / a)
                            dst[o + 3] = UInt8(a)
                        }
                        o += 4
                        i += 4
                    }
                }
            }
        }
        var out = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 6, 0, 0, 0])  // 8 bits, RGBA, deflate, adaptive filters, no interlace
        appendChunk("IHDR", header, to: &out)
        // zlib: header, stored blocks of at most 65 535 bytes, Adler-32.
        var z = Data([0x78, 0x01])
        z.reserveCapacity(raw.count + raw.count / 65_535 * 5 + 16)
        var offset = 0
        repeat {
            let n = min(65_535, raw.count - offset)
            let final: UInt8 = offset + n == raw.count ? 1 : 0
            z.append(final)
            z.append(UInt8(n & 0xFF)); z.append(UInt8(n >> 8))
            z.append(UInt8(~n & 0xFF)); z.append(UInt8((~n >> 8) & 0xFF))
            raw.withUnsafeBufferPointer { z.append(UnsafeBufferPointer(rebasing: $0[offset..<(offset + n)])) }
            offset += n
        } while offset < raw.count
        z.appendBigEndian(adler32(raw))
        appendChunk("IDAT", z, to: &out)
        appendChunk("IEND", Data(), to: &out)
        return out
    }

    private static func appendChunk(_ type: String, _ body: Data, to out: inout Data) {
        out.appendBigEndian(UInt32(body.count))
        let typed = Data(type.utf8) + body
        out.append(typed)
        out.appendBigEndian(crc32(typed))
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ data: Data) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { table in
            data.withUnsafeBytes { bytes in
                for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
            }
        }
        return c ^ 0xFFFF_FFFF
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        data.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                // 5552 bytes keep the sums below 2³² before the modulo.
                let end = min(i + 5552, p.count)
                while i < end { a &+= UInt32(p[i]); b &+= a; i += 1 }
                a %= 65_521; b %= 65_521
            }
        }
        return b << 16 | a
    }
}

private extension Data {
    mutating func appendBigEndian(_ v: UInt32) {
        append(contentsOf: [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)])
    }
}
