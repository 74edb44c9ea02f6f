// Glyph coverage masks, kept between frames: one per font, pixel size, glyph and subpixel phase
// (a quarter pixel; the builder uses phases in x only and puts baselines on whole pixels). The outline comes from FreeType through Cairo
// (cairo_glyph_path, unhinted as the text layout is), is flattened and scan-converted by the
// same analytic coverage rasteriser as shapes, so a glyph drawn at a quarter-pixel position
// needs no resampling and changing text costs only the layout.
import Foundation
import Synchronization
import CCairo
import CStrataKernels
import StrataCore

/// A Cairo scaled font (thread-safe), kept alive while shaped text or masks refer to it.
// @unchecked: holds a C pointer; cairo scaled fonts are thread-safe (reference counted, with
// their own locks), and this object only references and releases it.
final class ShapedFont: @unchecked Sendable {
    let scaledFont: OpaquePointer

    init(retaining font: OpaquePointer) {
        scaledFont = cairo_scaled_font_reference(font)
    }

    deinit { cairo_scaled_font_destroy(scaledFont) }

    /// An identity for cache keys (valid while this object lives).
    var key: UInt { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(scaledFont))) }
}

/// A glyph's coverage at one pixel size and phase: `width × height` values 0…1, its top-left
/// pixel `(left, top)` from the pixel holding the glyph origin. The values live at a fixed
/// address for the mask's lifetime, so placed glyphs can point at them.
// @unchecked: `coverage` is written once, in init, and only read afterwards.
final class GlyphMask: @unchecked Sendable {
    /// Unique among masks ever made (fingerprints compare glyphs by it).
    let serial: UInt64
    let left: Int, top: Int, width: Int, height: Int
    let coverage: UnsafeMutableBufferPointer<Float>

    init(serial: UInt64, left: Int, top: Int, width: Int, height: Int, coverage: [Float]) {
        self.serial = serial; self.left = left; self.top = top; self.width = width; self.height = height
        // Followed by STRATA_GLYPH_TAIL zeros, which the glyph kernel's last step of a row may read.
        let tail = Int(STRATA_GLYPH_TAIL)
        let base = UnsafeMutablePointer<Float>.allocate(capacity: coverage.count + tail)
        coverage.withUnsafeBufferPointer { base.initialize(from: $0.baseAddress!, count: $0.count) }
        (base + coverage.count).initialize(repeating: 0, count: tail)
        self.coverage = UnsafeMutableBufferPointer(start: base, count: coverage.count)
    }

    deinit { coverage.deallocate() }
}

/// Glyph masks by font, scale, glyph and phase; thread-safe, bounded.
final class GlyphCache: Sendable {
    struct Key: Hashable {
        let font: UInt
        let scale: Double
        let glyph: UInt32
        let phase: UInt8
    }
    struct State {
        var masks: [Key: GlyphMask] = [:]
        /// Fonts the keys refer to, kept alive so their identities are not reused.
        var fonts: [UInt: ShapedFont] = [:]
        var bytes = 0
        var serial: UInt64 = 0
    }
    private let state = Mutex(State())
    /// Bytes of masks kept (default 32 MiB); past it the cache starts over.
    let capacity: Int

    init(capacity: Int = 32 << 20) { self.capacity = capacity }

    /// Subpixel positions per pixel, in x and in y.
    static let phases = 4

    /// The mask of `glyph` of `font` at `scale` pixels per font unit, its origin at
    /// (phaseX, phaseY) / 4 pixel inside its pixel.
    func mask(_ font: ShapedFont, scale: Double, glyph: UInt32, phaseX: Int, phaseY: Int) -> GlyphMask {
        let key = Key(font: font.key, scale: scale, glyph: glyph, phase: UInt8(phaseX | phaseY << 4))
        if let hit = state.withCheckedLock({ $0.masks[key] }) { return hit }
        let (left, top, w, h, coverage) = GlyphCache.rasterize(font, scale: scale, glyph: glyph,
                                                              x: Double(phaseX) / Double(GlyphCache.phases),
                                                              y: Double(phaseY) / Double(GlyphCache.phases))
        return state.withCheckedLock { s in
            if let raced = s.masks[key] { return raced }
            if s.bytes + coverage.count * 4 > capacity { s.masks = [:]; s.fonts = [:]; s.bytes = 0 }
            s.serial += 1
            let m = GlyphMask(serial: s.serial, left: left, top: top, width: w, height: h, coverage: coverage)
            s.masks[key] = m
            s.fonts[key.font] = font
            s.bytes += coverage.count * 4
            return m
        }
    }

    /// The outline of a glyph at pixel scale, origin at (x, y), scan-converted.
    static func rasterize(_ font: ShapedFont, scale: Double, glyph: UInt32, x: Double, y: Double)
        -> (Int, Int, Int, Int, [Float]) {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1) else { return (0, 0, 0, 0, []) }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return (0, 0, 0, 0, []) }
        defer { cairo_destroy(cr) }
        let sf = font.scaledFont
        cairo_set_font_face(cr, cairo_scaled_font_get_font_face(sf))
        var matrix = cairo_matrix_t()
        cairo_scaled_font_get_font_matrix(sf, &matrix)
        cairo_matrix_scale(&matrix, scale, scale)
        cairo_set_font_matrix(cr, &matrix)
        if let options = cairo_font_options_create() {
            cairo_scaled_font_get_font_options(sf, options)
            cairo_set_font_options(cr, options)
            cairo_font_options_destroy(options)
        }
        var g = cairo_glyph_t(index: UInt(glyph), x: x, y: y)
        cairo_glyph_path(cr, &g, 1)
        guard let path = cairo_copy_path(cr) else { return (0, 0, 0, 0, []) }
        defer { cairo_path_destroy(path) }
        var elements: [CGPathElement] = []
        var i = 0
        guard path.pointee.num_data > 0, let data = path.pointee.data else { return (0, 0, 0, 0, []) }
        while i < Int(path.pointee.num_data) {
            let header = data[i].header
            switch header.type {
            case CAIRO_PATH_MOVE_TO:
                elements.append(.moveToPoint(CGPoint(x: data[i + 1].point.x, y: data[i + 1].point.y)))
            case CAIRO_PATH_LINE_TO:
                elements.append(.addLineToPoint(CGPoint(x: data[i + 1].point.x, y: data[i + 1].point.y)))
            case CAIRO_PATH_CURVE_TO:
                elements.append(.addCurveToPoint(CGPoint(x: data[i + 1].point.x, y: data[i + 1].point.y),
                                                 CGPoint(x: data[i + 2].point.x, y: data[i + 2].point.y),
                                                 CGPoint(x: data[i + 3].point.x, y: data[i + 3].point.y)))
            default:
                elements.append(.closeSubpath)
            }
            i += Int(header.length)
        }
        let flat = FlatPath(elements, tolerance: VectorShape.tolerancePixels)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for sub in flat.subpaths { for p in sub.points {
            minX = min(minX, Double(p.x)); maxX = max(maxX, Double(p.x)); minY = min(minY, Double(p.y)); maxY = max(maxY, Double(p.y))
        } }
        guard minX < maxX, minY < maxY else { return (0, 0, 0, 0, []) }
        let left = Int(minX.rounded(.down)), top = Int(minY.rounded(.down))
        let w = Int(maxX.rounded(.up)) - left, h = Int(maxY.rounded(.up)) - top
        var sink = strata_cell_sink()
        sink.width = Int32(w); sink.height = Int32(h)
        defer { free(sink.cells) }
        for sub in flat.subpaths where sub.points.count > 1 {
            var px = Double(sub.points[0].x) - Double(left), py = Double(sub.points[0].y) - Double(top)
            let sx = px, sy = py
            for p in sub.points.dropFirst() {
                let qx = Double(p.x) - Double(left), qy = Double(p.y) - Double(top)
                strata_cells_add_edge(&sink, px, py, qx, qy)
                px = qx; py = qy
            }
            strata_cells_add_edge(&sink, px, py, sx, sy)
        }
        var rows = [Int32](repeating: 0, count: h + 1)
        rows.withUnsafeMutableBufferPointer { _ = strata_cells_finish(&sink, $0.baseAddress!, 0, Int32(h)) }
        var coverage = [Float](repeating: 0, count: w * h)
        coverage.withUnsafeMutableBufferPointer { out in
            for r in 0..<h {
                let s = Int(rows[r]), n = Int(rows[r + 1]) - s
                guard n > 0, let cells = sink.cells else { continue }
                var first: Int32 = 0, end: Int32 = 0
                strata_coverage_mask(cells + s, n, 0, 0, Int32(w), out.baseAddress! + r * w, &first, &end)
            }
        }
        return (left, top, w, h, coverage)
    }
}

/// The glyph masks one display-list build after another looked up, in a direct-mapped table:
/// looked up here first, a glyph drawn again costs three multiplies and a few comparisons instead
/// of the cache's lock and its dictionary's SipHash (measured: the motion frame's 1 500 glyphs
/// took 0.6 M instructions fewer, 97.8 → 97.2 M). A miss asks the cache and replaces the entry of
/// its slot. Fonts compare by the Cairo font they wrap (a layout wraps it anew for each run); every
/// entry keeps its font, and so that Cairo font, alive, so its address is not reused while an
/// entry names it, and its mask, which stays valid after the cache starts over (masks never change):
/// at most `slots` masks are kept beyond the cache's bound.
// @unchecked: mutable, but only ever in the hands of one build — taken out of the cache's mutex
// for the build and put back after, with RepeatedOps (BuildRecords).
final class RecentGlyphs: @unchecked Sendable {
    private struct Entry {
        var font: ShapedFont?
        var scale: Double = 0
        var glyph: UInt32 = 0
        var phase: UInt8 = 0
        var mask: GlyphMask?
    }
    static let slotBits = 10
    static var slots: Int { 1 << slotBits }
    /// Made at the first lookup (a build nested in another starts a table of its own, and most
    /// draw no text).
    @exclusivity(unchecked) private var entries = ContiguousArray<Entry>()

    /// `cache.mask(font, scale:, glyph:, phaseX:, phaseY:)`, from the table when it holds it.
    func mask(_ font: ShapedFont, scale: Double, glyph: UInt32, phaseX: Int, phaseY: Int, in cache: GlyphCache) -> GlyphMask {
        let phase = UInt8(truncatingIfNeeded: phaseX | phaseY << 4)
        // Fibonacci hashing of the fields (the font's address varies in its upper bits, the glyph
        // and phase in the lower ones).
        var h = UInt64(truncatingIfNeeded: font.key) &* 0x9E37_79B9_7F4A_7C15
        h ^= (UInt64(glyph) << 8 | UInt64(phase)) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= scale.bitPattern &* 0x1656_67B1_9E37_79F9
        let slot = Int(truncatingIfNeeded: h >> (64 - UInt64(RecentGlyphs.slotBits)))
        if entries.isEmpty { entries = ContiguousArray(repeating: Entry(), count: RecentGlyphs.slots) }
        return entries.withUnsafeMutableBufferPointer { table in
            if let mask = table[slot].mask, table[slot].font?.key == font.key, table[slot].glyph == glyph,
               table[slot].phase == phase, table[slot].scale.bitPattern == scale.bitPattern {
                return mask
            }
            let mask = cache.mask(font, scale: scale, glyph: glyph, phaseX: phaseX, phaseY: phaseY)
            table[slot] = Entry(font: font, scale: scale, glyph: glyph, phase: phase, mask: mask)
            return mask
        }
    }
}
