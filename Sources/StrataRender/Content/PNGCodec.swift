// PNG files in and out of Bitmaps, through Cairo's PNG support (libpng underneath).
// Cairo's ARGB32 is premultiplied, native-endian 32-bit words; Bitmap is RGBA bytes.
import Foundation
import CCairo
import StrataCore

/// Errors reading or writing images.
public enum ImageIOError: Error, CustomStringConvertible {
    /// The image at `path` could not be read (missing, not a PNG, or damaged); `reason` says which.
    case cannotRead(path: String, reason: String)
    /// The image could not be written to `path`; `reason` says why.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let p, let r): "cannot read image \(p): \(r)"
        case .cannotWrite(let p, let r): "cannot write image \(p): \(r)"
        }
    }
}

extension Bitmap {
    /// Writes the bitmap as a PNG (to a temporary name first, then renamed, so a failed write
    /// never leaves a half-written file under `url`).
    public func writePNG(to url: URL) throws {
        let path = url.path
        let dir = url.deletingLastPathComponent().path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir.isEmpty ? "." : dir, isDirectory: &isDir), isDir.boolValue else {
            throw ImageIOError.cannotWrite(path: path, reason: "the folder \(dir) does not exist")
        }
        if let reason = OutputDestination.refusal(at: path) { throw ImageIOError.cannotWrite(path: path, reason: reason) }
        guard let surface = makeCairoSurface() else {
            throw ImageIOError.cannotWrite(path: path, reason: "cannot create an image of \(width)×\(height)")
        }
        defer { cairo_surface_destroy(surface) }
        let tmp = TemporaryOutput.url(for: url).path
        let status = cairo_surface_write_to_png(surface, tmp)
        guard status == CAIRO_STATUS_SUCCESS else {
            unlink(tmp)
            throw ImageIOError.cannotWrite(path: path, reason: String(cString: cairo_status_to_string(status)))
        }
        guard rename(tmp, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(tmp)
            throw ImageIOError.cannotWrite(path: path, reason: reason)
        }
    }

    /// Encodes the bitmap as PNG bytes (in memory: no file is written).
    public func pngData() throws -> Data {
        guard let surface = makeCairoSurface() else {
            throw ImageIOError.cannotWrite(path: "<PNG data>", reason: "cannot create an image of \(width)×\(height)")
        }
        defer { cairo_surface_destroy(surface) }
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(surface, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ImageIOError.cannotWrite(path: "<PNG data>", reason: String(cString: cairo_status_to_string(status)))
        }
        return withExtendedLifetime(sink) { Data(sink.bytes) }
    }

    /// Reads a PNG file into a premultiplied RGBA bitmap.
    public init(contentsOfPNG url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw ImageIOError.cannotRead(path: url.path, reason: "no such file")
        }
        if let refusal = InputFile.refusal(at: url.path) { throw ImageIOError.cannotRead(path: url.path, reason: refusal) }
        guard let s = cairo_image_surface_create_from_png(url.path) else {
            throw ImageIOError.cannotRead(path: url.path, reason: "out of memory")
        }
        defer { cairo_surface_destroy(s) }
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw ImageIOError.cannotRead(path: url.path, reason: String(cString: cairo_status_to_string(status)))
        }
        self = Bitmap(cairoSurface: s)
    }

    /// Copies a Cairo image surface (ARGB32 or RGB24) into a bitmap.
    init(cairoSurface s: OpaquePointer) {
        cairo_surface_flush(s)
        let w = Int(cairo_image_surface_get_width(s)), h = Int(cairo_image_surface_get_height(s))
        let stride = Int(cairo_image_surface_get_stride(s))
        let opaque = cairo_image_surface_get_format(s) != CAIRO_FORMAT_ARGB32
        var b = Bitmap(width: w, height: h)
        guard let data = cairo_image_surface_get_data(s) else { self = b; return }
        // ARGB32 native-endian words → RGBA bytes: swap the R and B bytes of each word
        // (a tight loop on words; the per-byte version cost ~2 ns per pixel).
        let alphaMask: UInt32 = opaque ? 0xff00_0000 : 0
        data.withMemoryRebound(to: UInt32.self, capacity: stride * h / 4) { words in
            b.pixels.withUnsafeMutableBytes { raw in
                let out = raw.bindMemory(to: UInt32.self)
                for y in 0..<h {
                    let row = words + y * stride / 4
                    let o = y * w
                    for x in 0..<w {
                        let v = row[x]
                        out[o + x] = (v & 0xff00_ff00) | ((v >> 16) & 0xff) | ((v & 0xff) << 16) | alphaMask
                    }
                }
            }
        }
        self = b
    }

    /// A new Cairo ARGB32 surface holding a copy of the pixels (caller destroys it).
    func makeCairoSurface() -> OpaquePointer? {
        guard let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else { return nil }
        let stride = Int(cairo_image_surface_get_stride(s))
        guard let data = cairo_image_surface_get_data(s) else { cairo_surface_destroy(s); return nil }
        data.withMemoryRebound(to: UInt32.self, capacity: stride * height / 4) { words in
            for y in 0..<height {
                let row = words + y * stride / 4
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    row[x] = UInt32(pixels[i + 3]) << 24 | UInt32(pixels[i]) << 16 | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2])
                }
            }
        }
        cairo_surface_mark_dirty(s)
        return s
    }
}
