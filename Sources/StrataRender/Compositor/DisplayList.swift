// The display list: a flat, ordered list of draw items in screen space, produced once per frame
// by DisplayListBuilder and read concurrently by the tile workers. Every item carries the inverse
// of its plane's homography so a worker maps each pixel centre back into the layer's own
// coordinates, where shapes are evaluated exactly (coverage from a signed distance scaled to
// screen pixels) and images are sampled.
import Foundation
import StrataCore

/// An integer pixel rectangle, half-open: `x0 ..< x1`, `y0 ..< y1`.
public struct PixelRect: Sendable, Equatable {
    /// The first column and row inside, and the first outside.
    public var x0: Int, y0: Int, x1: Int, y1: Int
    /// The columns `x0 ..< x1` of the rows `y0 ..< y1`.
    public init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    /// Whether it holds no pixel.
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    /// The pixels in both (empty when they do not meet).
    public func intersection(_ o: PixelRect) -> PixelRect {
        PixelRect(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }
    /// The smallest rectangle holding both (an empty one counts for nothing).
    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return PixelRect(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }
    /// No pixels.
    public static let empty = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
}

/// A rectangle with per-corner radii in a layer's own coordinates.
public struct RoundedRect: Sendable, Equatable {
    /// The rectangle.
    public var rect: CGRect
    /// Radii of the corners: top-left, top-right, bottom-left, bottom-right (y-down).
    public var radii: (Double, Double, Double, Double)

    /// `rect` with `radius` (at most half the shorter side) at the `corners` named, as
    /// `cornerRadius` and `maskedCorners` give it.
    public init(rect: CGRect, radius: Double, corners: CACornerMask = .all) {
        self.rect = rect
        let r = max(0, min(radius, Double(min(rect.width, rect.height)) / 2))
        radii = (corners.contains(.layerMinXMinYCorner) ? r : 0, corners.contains(.layerMaxXMinYCorner) ? r : 0,
                 corners.contains(.layerMinXMaxYCorner) ? r : 0, corners.contains(.layerMaxXMaxYCorner) ? r : 0)
    }

    /// `rect` with the radii given as they are (top-left, top-right, bottom-left, bottom-right).
    public init(rect: CGRect, radii: (Double, Double, Double, Double)) { self.rect = rect; self.radii = radii }

    public static func == (l: RoundedRect, r: RoundedRect) -> Bool {
        l.rect == r.rect && l.radii.0 == r.radii.0 && l.radii.1 == r.radii.1 && l.radii.2 == r.radii.2 && l.radii.3 == r.radii.3
    }

    /// The rectangle inset by `d` on every side, radii shrunk accordingly (a border's inner edge).
    public func inset(by d: Double) -> RoundedRect {
        let r = rect.insetBy(dx: CGFloat(d), dy: CGFloat(d))
        return RoundedRect(rect: r.isNull ? CGRect(x: rect.midX, y: rect.midY, width: 0, height: 0) : r,
                           radii: (max(0, radii.0 - d), max(0, radii.1 - d), max(0, radii.2 - d), max(0, radii.3 - d)))
    }
}

/// Where a draw item's plane sits: the homography to the screen and its inverse.
public struct PlaneMap: Sendable {
    /// From the plane's points to screen pixels.
    public var toScreen: Homography
    /// From screen pixels to the plane's points (the inverse).
    public var fromScreen: Homography
    /// True when the item's edges are anti-aliased (the layer's `allowsEdgeAntialiasing`); false
    /// draws them with hard, pixel-centre coverage.
    public var antialiased: Bool
}

/// A region that restricts drawing (masksToBounds of an ancestor), in that ancestor's plane.
public struct ClipShape: Sendable {
    /// The plane the shape is in.
    public var plane: PlaneMap
    /// The clipping ancestor's bounds with its corner radii.
    public var shape: RoundedRect
    /// The screen pixels the shape can cover.
    public var bounds: PixelRect
}

/// How an image is mapped onto a layer's rectangle.
public struct ImagePlacement: Sendable {
    /// The image drawn.
    public var image: CGImage
    /// The layer-space rectangle the (sub-)image fills.
    public var destination: CGRect
    /// The part of the image shown, in image pixels (may extend beyond the image: edges clamp).
    public var source: CGRect
    /// Nearest-neighbour sampling (a layer's `magnificationFilter` of `.nearest`) instead of bilinear.
    public var nearest: Bool
    /// When set, only pixels whose centres fall in this layer-space rectangle (half-open) are
    /// drawn: the cells of a sparse backing store partition the destination exactly, while the
    /// destination's own edges stay anti-aliased.
    public var cell: CGRect? = nil
    /// When set, edge coverage (anti-aliasing) comes from this rectangle instead of
    /// `destination`: the slices of a nine-slice image share the outline of the whole image.
    public var coverage: CGRect? = nil
    /// Trilinear minification: the next smaller mipmap level (same `source` rectangle in its
    /// own, halved, pixel units) and how much of it to mix in.
    public var blend: (image: CGImage, weight: Float)? = nil
    /// When set, the image is a mask: the output is this premultiplied colour times the
    /// sampled alpha (a shadow from its blurred shadowPath).
    public var tint: SIMD4<Float>? = nil
    /// When set, every sampled colour is multiplied by this premultiplied colour, component by
    /// component (a particle's colour, a replicator instance's `instanceColor`).
    public var modulate: SIMD4<Float>? = nil
    /// Sampled as a sprite (a particle's image): bilinear with its weights in steps of 1/256 and
    /// the texels mixed in integers (`ImageSampler.spriteSample`, the kernels' sprite rows).
    /// Set only where the kernels' sprite rows draw it: no clips, tint, crossfade or nearest
    /// sampling, an affine map.
    public var sprite = false
    /// A sprite's image as words with a border of one texel repeating its edge (`bordered(_:)`),
    /// made once per image and frame for the kernels' sprite rows, which read each pair of
    /// neighbouring texels in one load from it; nil for the others (and images over
    /// `SpriteBorder.maximumTexels`).
    var spriteTexels: [UInt32]? = nil
}

/// Sprite images with a border (ImagePlacement.spriteTexels).
enum SpriteBorder {
    /// The largest image bordered (a particle's image is usually a few dozen texels square).
    static let maximumTexels = 256 * 256

    /// `image`'s texels (RGBA bytes as little-endian words) with a border of one texel around
    /// them, each border texel its nearest edge texel's: (width + 2) × (height + 2) words, the
    /// image's texel (x, y) at (x + 1, y + 1). Nil for images over `maximumTexels` or empty ones.
    static func bordered(_ image: CGImage) -> [UInt32]? {
        let w = image.width, h = image.height
        guard w > 0, h > 0, w * h <= maximumTexels, image.bitmap.pixels.count >= 4 * w * h else { return nil }
        let pw = w + 2
        return image.bitmap.pixels.withUnsafeBytes { raw -> [UInt32] in
            let src = raw.bindMemory(to: UInt32.self)
            return [UInt32](unsafeUninitializedCapacity: pw * (h + 2)) { out, count in
                for y in 0..<(h + 2) {
                    let from = src.baseAddress! + min(max(y - 1, 0), h - 1) * w, row = out.baseAddress! + y * pw
                    (row + 1).initialize(from: from, count: w)
                    row[0] = from[0]
                    row[w + 1] = from[w - 1]
                }
                count = pw * (h + 2)
            }
        }
    }
}

/// What an item draws. (Indirect but for the two last cases: the payloads live in a box, so a
/// `DrawItem` is 290 bytes instead of 562, and the tile stage's copies of items — one per item
/// drawn in a tile — copy a reference instead of the payload: 2 % of the motion frame's
/// instructions, for one allocation an item. A shape's or a text run's payload, an object and a
/// colour, is kept inline: it adds 16 bytes to the item (274 with every payload boxed), and those
/// items are made anew every frame their content changes, a box each.)
public enum DrawOp: Sendable {
    /// Fill a rounded rectangle with a premultiplied colour.
    indirect case fill(RoundedRect, SIMD4<Float>)
    /// The ring between an outer and inner rounded rectangle (a border).
    indirect case ring(outer: RoundedRect, inner: RoundedRect, SIMD4<Float>)
    /// An image filling its destination rectangle, optionally clipped to the layer's rounded
    /// bounds (masksToBounds).
    indirect case image(ImagePlacement, clip: RoundedRect?, opacity: Float)
    /// A gradient over the layer's bounds (clip: bounds, rounded when masksToBounds).
    indirect case gradient(GradientPaint, clip: RoundedRect)
    /// Render `items` offscreen, then composite with `opacity` (group opacity), multiplied by
    /// the alpha of `mask` rendered offscreen too (a layer's `mask`).
    indirect case group(DisplayList, opacity: Float, mask: DisplayList?)
    /// Both lists rendered offscreen and mixed `(1 − t)·from + t·to` (a cross-dissolve).
    indirect case mix(from: DisplayList, to: DisplayList, t: Float)
    /// The faces of a 3D rendering context (CATransformLayer), each rendered offscreen and
    /// composited per pixel from the farthest to the nearest.
    indirect case depthComposite([DepthFace])
    /// A blurred, offset, tinted copy of the alpha of `source` (a layer's shadow).
    indirect case shadow(ShadowPaint)
    /// The fill or stroke of a shape layer in a premultiplied colour, drawn straight into the
    /// tiles from its coverage (rasterised once per frame before the tiles are drawn).
    case vector(VectorShape, color: SIMD4<Float>)
    /// Glyph masks of a text layer in a premultiplied colour, drawn straight into the tiles.
    case glyphs(PlacedGlyphs, color: SIMD4<Float>)
}

/// A shadow: the alpha of `source`, blurred with a Gaussian of `sigma` pixels, moved by
/// `(dx, dy)` pixels and tinted with `color` (premultiplied, opacity included).
public struct ShadowPaint: Sendable {
    /// The items whose alpha casts the shadow.
    public var source: DisplayList
    /// The shadow's colour, premultiplied, its opacity included.
    public var color: SIMD4<Float>
    /// The offset in screen pixels.
    public var dx: Double, dy: Double
    /// The Gaussian's standard deviation in screen pixels.
    public var sigma: Double
    /// Normalised kernel weights for offsets −radius…radius.
    public var kernel: [Float]
    /// The kernel's half width in pixels.
    public var radius: Int { kernel.count / 2 }
    /// The blurred silhouette, made by the first tile that draws the shadow (ShadowMask.swift):
    /// a cache of a function of the fields above.
    public let maskSlot: ShadowMaskSlot

    /// The widest blur drawn, in pixels: a bound for a caller that did not apply
    /// `invisibleSigma` (the one for the largest frame), so that no value traps or exhausts memory.
    public static let maximumSigma = invisibleSigma(frameWidth: 16_384, frameHeight: 16_384)

    /// The blur beyond which a shadow on a `frameWidth`×`frameHeight` frame cannot be seen, so
    /// it need not be drawn. The blurred alpha at a pixel is Σ alpha·g, where g, the 2D kernel,
    /// peaks at 1 / (2πσ²); the source is clipped to the frame, so Σ alpha ≤ width × height,
    /// and the shadow's alpha is at most width × height / (2πσ²) everywhere. Past
    /// σ = √(width × height × 512 / (2π)) that is under 1/512, less than half a step of an 8-bit
    /// channel: the "uniform faint wash" a huge radius makes has faded below what the output can
    /// show (320×180: σ ≈ 2166 px). Below it the blur is drawn exactly; its cost stays within
    /// the frame's size (`TileRasterizer.drawShadow`).
    public static func invisibleSigma(frameWidth: Int, frameHeight: Int) -> Double {
        (Double(max(1, frameWidth)) * Double(max(1, frameHeight)) * 512 / (2 * .pi)).squareRoot()
    }

    /// Offsets of this size (pixels) or more move any shadow off any frame: frames are at most
    /// 16 384 px and the kernel reaches at most 3 × `maximumSigma` ≈ 450 000 px.
    public static let farOffset = 1e7

    /// A shadow; `sigma` is taken as 0 (no blur) when NaN or negative and at most
    /// `maximumSigma`, and `dx`, `dy` within ±`farOffset`, so that no value traps.
    /// `frame`, the frame's pixels, lets a silhouette wholly on it be found without drawing it.
    public init(source: DisplayList, color: SIMD4<Float>, dx: Double, dy: Double, sigma: Double, frame: PixelRect? = nil) {
        maskSlot = ShadowMaskSlot(frame: frame)
        let sigma = sigma.isNaN ? 0 : min(sigma, Self.maximumSigma)
        let dx = dx.isNaN ? 0 : min(max(dx, -Self.farOffset), Self.farOffset)
        let dy = dy.isNaN ? 0 : min(max(dy, -Self.farOffset), Self.farOffset)
        self.source = source; self.color = color; self.dx = dx; self.dy = dy; self.sigma = sigma
        if sigma < 0.05 {
            kernel = [1]
        } else {
            let r = Int((3 * sigma).rounded(.up))
            var k = (-r...r).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
            let sum = k.reduce(0, +)
            k = k.map { $0 / sum }
            kernel = k
        }
    }
}

/// The plane of a face in a 3D rendering context: depth at a screen pixel is z / w of the
/// face's local point in the context's 3D space (larger is nearer the viewer).
public struct DepthPlane: Sendable {
    let mapper: Homography
    let zu: Double, zv: Double, z0: Double
    let wu: Double, wv: Double, w0: Double

    init(fromScreen: Homography, layerTo3D m: CATransform3D) {
        mapper = fromScreen
        zu = Double(m.m13); zv = Double(m.m23); z0 = Double(m.m43)
        wu = Double(m.m14); wv = Double(m.m24); w0 = Double(m.m44)
    }

    /// Depth at the centre of pixel (x, y); −∞ behind the eye.
    @inline(__always)
    func depth(_ x: Int, _ y: Int) -> Double {
        let X = Double(x) + 0.5, Y = Double(y) + 0.5
        let m = mapper.m
        let a = X * m.0 + Y * m.3 + m.6, b = X * m.1 + Y * m.4 + m.7, h = X * m.2 + Y * m.5 + m.8
        guard h > 0 else { return -.infinity }
        let u = a / h, v = b / h
        let w = u * wu + v * wv + w0
        guard w > 0 else { return -.infinity }
        let z = (u * zu + v * zv + z0) / w
        return z.isNaN ? -.infinity : z
    }
}

/// One face of a 3D rendering context.
public struct DepthFace: Sendable {
    /// What the face draws.
    public var items: DisplayList
    /// Its plane in the context's 3D space, for the depth of each pixel.
    public var plane: DepthPlane
}

/// One thing to draw.
public struct DrawItem: Sendable {
    /// What is drawn.
    public var op: DrawOp
    /// The plane the op's geometry is in.
    public var plane: PlaneMap
    /// Screen pixels the item may touch (already clipped to the frame and clips).
    public var bounds: PixelRect
    /// The clips of its ancestors (masksToBounds), all applied.
    public var clips: [ClipShape]
    /// The item's area on screen as a convex quad, when it is entirely in front of the eye:
    /// rows are scanned only between its edges (measured: 2× faster on rotated images).
    public var outline: ScreenQuad? = nil
    /// How the item's colour combines with what is beneath (source-over unless an emitter in
    /// `.additive` mode drew it, or a layer's `compositingFilter` made it a group of a blend mode).
    public var blendMode: ItemBlendMode = .sourceOver
}

/// How a draw item's premultiplied colour `s` combines with the destination `d`.
public enum ItemBlendMode: Sendable, Equatable {
    /// `s + d·(1 − s.a)`.
    case sourceOver
    /// `min(s + d, 1)` per component (Core Animation's additive particles): overlapping
    /// particles brighten. Image items only (AdditiveBlend.swift).
    case additive
    /// A W3C Compositing and Blending mode (a layer's `compositingFilter`): the group's pixels
    /// composited onto the backdrop with the mode's formula (LayerBlend.swift; `addition`: the
    /// sum, clamped; `normal`: source-over). Group items only.
    case blend(LayerBlendMode)
}

/// Four screen points of a convex quadrilateral, in order.
public struct ScreenQuad: Sendable {
    /// The corners' x coordinates in screen pixels.
    public var xs: SIMD4<Double>
    /// The corners' y coordinates.
    public var ys: SIMD4<Double>

    /// The pixel columns of row `y` that the quad may touch (with one pixel of margin for
    /// anti-aliasing), clamped to `lo..<hi`.
    @inline(__always)
    func span(row y: Int, _ lo: Int, _ hi: Int) -> (Int, Int) {
        let top = Double(y) - 1, bottom = Double(y) + 2
        var minX = Double.infinity, maxX = -Double.infinity
        for i in 0..<4 {
            let j = (i + 1) & 3
            var x0 = xs[i], y0 = ys[i], x1 = xs[j], y1 = ys[j]
            if y0 > y1 { swap(&x0, &x1); swap(&y0, &y1) }
            if y1 < top || y0 > bottom { continue }
            // Clip the edge to the band [top, bottom] and take its x extent.
            let dy = y1 - y0
            let ta = dy > 0 ? max(0, (top - y0) / dy) : 0, tb = dy > 0 ? min(1, (bottom - y0) / dy) : 1
            let xa = x0 + (x1 - x0) * ta, xb = x0 + (x1 - x0) * tb
            minX = min(minX, min(xa, xb)); maxX = max(maxX, max(xa, xb))
        }
        guard minX <= maxX else { return (lo, lo) }
        // Clamped to the columns asked about before the conversion: a quad of a layer a
        // template made 1e300 points wide has edges beyond Int's range.
        let left = min(max(minX.rounded(.down), Double(lo) - 1), Double(hi) + 1)
        let right = min(max(maxX.rounded(.up), Double(lo) - 1), Double(hi) + 1)
        let a = max(lo, Int(left) - 1), b = min(hi, Int(right) + 1)
        return a < b ? (a, b) : (lo, lo)
    }
}

/// The ordered draw items of a frame (or of a group).
public struct DisplayList: Sendable {
    /// The items, drawn first to last.
    public var items: [DrawItem]
    /// How the list masks when it is a group's mask (its layer's `MatteLayer.maskMode`).
    public var maskMode: MaskMode = .alpha
    /// A group's effects (its layer's `LayerSnapshot.effects`), applied to the group's pixels in
    /// order before it is composited (GroupEffects.swift); the group item's clips then apply.
    var effects: [GroupEffect] = []
    /// Where the first tile to draw a group with effects keeps its pixels for the others (set
    /// with `effects`; a list of other items needs a slot of its own).
    var effectSlot: GroupEffectSlot? = nil
    /// A list of `items`.
    public init(items: [DrawItem] = []) { self.items = items }
    /// The union of the items' pixel bounds.
    public var bounds: PixelRect { items.reduce(PixelRect.empty) { $0.union($1.bounds) } }

    /// Calls `body` with every vector shape of the list, nested lists included.
    func forEachVectorShape(_ body: (VectorShape) -> Void) {
        for i in items.indices { items[i].forEachVectorShape(body) }
    }
}

extension DrawItem {
    /// Calls `body` with the item's vector shape, or those of the lists it holds.
    func forEachVectorShape(_ body: (VectorShape) -> Void) {
        switch op {
        case .vector(let shape, _): body(shape)
        case .group(let list, _, let mask): list.forEachVectorShape(body); mask?.forEachVectorShape(body)
        case .mix(let from, let to, _): from.forEachVectorShape(body); to.forEachVectorShape(body)
        case .depthComposite(let faces): for f in faces { f.items.forEachVectorShape(body) }
        case .shadow(let s): s.source.forEachVectorShape(body)
        case .fill, .ring, .image, .gradient, .glyphs: break
        }
    }
}
