// Strokes turned into the outlines of their fill (the PostScript model Core Graphics and Cairo
// follow): each polyline is offset by half the line width on both sides; at corners the outer
// side gets the join (miter within the miter limit, else bevel; round; bevel) and the inner side
// the point where the two offset lines cross (or, when that point lies beyond a segment, a
// detour through the vertex — the region it adds lies inside the stroke); open ends get caps.
// Vertices inside a flattened curve are joined round, which is the curve's own offset; there a
// turn so small that the round join's chord lies within the tolerance of its arc (most of a
// curve's vertices) gets one outer point, the arc's midpoint, instead of the two offsets' ends.
// An open polyline becomes one contour (left side out, right side back); a closed one two
// contours of opposite directions. Filled with the nonzero rule, the contours cover exactly the stroke.
import Foundation
import StrataCore

/// Receives outline contours.
protocol ContourSink {
    mutating func move(_ x: Double, _ y: Double)
    mutating func line(_ x: Double, _ y: Double)
    mutating func close()
}

/// Offsets polylines into stroke outlines.
struct StrokeOutliner {
    let halfWidth: Double
    let cap: CGLineCap
    let join: CGLineJoin
    let miterLimit: Double
    /// Largest distance between an arc and its chords (layer units).
    let tolerance: Double
    /// The angle step of round joins and caps.
    private let arcStep: Double
    /// Below this ratio |turn| / dot of two directions (dot > 0), the angle between them is surely
    /// at most `arcStep` (tan(arcStep) with a margin far above rounding): a round join there adds
    /// no points, found without the arc tangent.
    private let flatTurn: Double

    init(halfWidth: Double, cap: CGLineCap, join: CGLineJoin, miterLimit: Double, tolerance: Double) {
        self.halfWidth = halfWidth; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.tolerance = tolerance
        let c = 1 - tolerance / halfWidth
        arcStep = c <= -1 ? .pi : max(2 * acos(max(-1, min(1, c))), 1e-3)
        flatTurn = arcStep < 1.5 ? tan(arcStep) * (1 - 1e-6) : 0
    }

    func stroke<S: ContourSink>(_ sub: FlatPath.Subpath, into sink: inout S) {
        var scratch = StrokeScratch()
        stroke(sub, into: &sink, scratch: &scratch)
    }

    /// `stroke(_:into:)` with buffers reused from stroke to stroke.
    func stroke<S: ContourSink>(_ sub: FlatPath.Subpath, into sink: inout S, scratch: inout StrokeScratch) {
        guard halfWidth > 0 else { return }
        // Drop repeated points (zero-length segments have no direction).
        var xs = scratch.take(\.xs), ys = scratch.take(\.ys), corner = scratch.take(\.corner)
        defer { scratch.xs = xs; scratch.ys = ys; scratch.corner = corner }
        xs.reserveCapacity(sub.points.count); ys.reserveCapacity(sub.points.count); corner.reserveCapacity(sub.points.count)
        for (i, p) in sub.points.enumerated() {
            let x = Double(p.x), y = Double(p.y)
            if let lx = xs.last, let ly = ys.last, lx == x, ly == y { corner[corner.count - 1] = corner.last! || sub.corners[i]; continue }
            xs.append(x); ys.append(y); corner.append(sub.corners[i])
        }
        if sub.isClosed, xs.count > 1, xs[0] == xs[xs.count - 1], ys[0] == ys[ys.count - 1] {
            xs.removeLast(); ys.removeLast(); corner.removeLast(); corner[0] = true
        }
        if xs.count == 1 {
            if !sub.isClosed { dot(xs[0], ys[0], into: &sink) }
            return
        }
        // An open polyline ending where it starts with round caps covers exactly what the
        // closed one with a round join covers; stroked as closed, its caps do not overlap the
        // stroke (overlapping outlines would count twice in the anti-aliased edge pixels).
        var closed = sub.isClosed
        if !closed, cap == .round, xs.count > 3, xs[0] == xs[xs.count - 1], ys[0] == ys[ys.count - 1] {
            xs.removeLast(); ys.removeLast(); corner.removeLast()
            closed = true
        }
        if closed && xs.count > 2 {
            let style = sub.isClosed ? join : .round
            side(xs, ys, corner, closed: true, join: style, into: &sink)
            sink.close()
            reverse(xs, ys, corner, into: &scratch)
            side(scratch.reversedXs, scratch.reversedYs, scratch.reversedCorner, closed: true, join: style, into: &sink)
            sink.close()
        } else {
            side(xs, ys, corner, closed: false, join: join, into: &sink)
            reverse(xs, ys, corner, into: &scratch)
            side(scratch.reversedXs, scratch.reversedYs, scratch.reversedCorner, closed: false, join: join, into: &sink,
                 continuing: true)
            sink.close()
        }
    }

    /// The polyline backwards, into the scratch's reversed buffers.
    private func reverse(_ xs: [Double], _ ys: [Double], _ corner: [Bool], into scratch: inout StrokeScratch) {
        scratch.reversedXs.removeAll(keepingCapacity: true)
        scratch.reversedYs.removeAll(keepingCapacity: true)
        scratch.reversedCorner.removeAll(keepingCapacity: true)
        scratch.reversedXs.append(contentsOf: xs.reversed())
        scratch.reversedYs.append(contentsOf: ys.reversed())
        scratch.reversedCorner.append(contentsOf: corner.reversed())
    }

    /// A lone point: a disc for round caps, a square for square caps, nothing for butt caps.
    private func dot<S: ContourSink>(_ x: Double, _ y: Double, into sink: inout S) {
        let h = halfWidth
        switch cap {
        case .butt: return
        case .square:
            sink.move(x - h, y - h); sink.line(x + h, y - h); sink.line(x + h, y + h); sink.line(x - h, y + h); sink.close()
        case .round:
            let n = max(8, Int((2 * .pi / arcStep).rounded(.up)))
            sink.move(x + h, y)
            for i in 1..<n {
                let a = 2 * .pi * Double(i) / Double(n)
                sink.line(x + h * cos(a), y + h * sin(a))
            }
            sink.close()
        }
    }

    /// The left offset of a polyline with its joins; for an open one, also the cap at its end
    /// (the right side follows, as the left side of the reversed polyline).
    private func side<S: ContourSink>(_ xs: [Double], _ ys: [Double], _ corner: [Bool], closed: Bool, join: CGLineJoin,
                                      into sink: inout S, continuing: Bool = false) {
        let m = xs.count, h = halfWidth
        let segments = closed ? m : m - 1
        @inline(__always) func dir(_ i: Int) -> (Double, Double, Double) {
            let j = i + 1 == m ? 0 : i + 1
            let dx = xs[j] - xs[i], dy = ys[j] - ys[i]
            let len = (dx * dx + dy * dy).squareRoot()
            return (dx / len, dy / len, len)
        }
        var started = false
        @inline(__always) func emit(_ x: Double, _ y: Double) {
            if !started && !continuing { sink.move(x, y) } else { sink.line(x, y) }
            started = true
        }
        if closed {
            var (ax, ay, la) = dir(m - 1)
            for i in 0..<m {
                let (bx, by, lb) = dir(i)
                joinPoints(xs[i], ys[i], ax, ay, la, bx, by, lb, corner[i], join, emit)
                (ax, ay, la) = (bx, by, lb)
            }
            return
        }
        // Open: start at the first offset point, join the inner vertices, end with the cap. Each
        // segment's direction is computed once and carried to the next vertex.
        var (ax, ay, la) = dir(0)
        emit(xs[0] - ay * h, ys[0] + ax * h)
        if segments > 1 {
            for i in 1..<(m - 1) {
                let (bx, by, lb) = dir(i)
                joinPoints(xs[i], ys[i], ax, ay, la, bx, by, lb, corner[i], join, emit)
                (ax, ay, la) = (bx, by, lb)
            }
        }
        let (ex, ey) = (ax, ay)
        let px = xs[m - 1], py = ys[m - 1]
        emit(px - ey * h, py + ex * h)
        switch cap {
        case .butt:
            break
        case .square:
            emit(px - ey * h + ex * h, py + ex * h + ey * h)
            emit(px + ey * h + ex * h, py - ex * h + ey * h)
        case .round:
            arc(px, py, -ey, ex, sweep: -.pi, emit)
        }
        emit(px + ey * h, py - ex * h)
    }

    /// The points of the left offset at vertex (vx, vy) between direction a (in) and b (out):
    /// from the end of a's offset to the start of b's, or the single point where they cross.
    @inline(__always)
    private func joinPoints(_ vx: Double, _ vy: Double, _ ax: Double, _ ay: Double, _ la: Double,
                            _ bx: Double, _ by: Double, _ lb: Double, _ isCorner: Bool, _ join: CGLineJoin,
                            _ emit: (Double, Double) -> Void) {
        let h = halfWidth
        let nax = -ay, nay = ax, nbx = -by, nby = bx
        let turn = ax * by - ay * bx, dot = ax * bx + ay * by
        if abs(turn) < 1e-12 && dot > 0 {
            emit(vx + nbx * h, vy + nby * h)
            return
        }
        if turn > 0 {
            // Inner side: where the two offset lines cross, if that lies on both segments.
            let p1x = vx + nax * h, p1y = vy + nay * h, p2x = vx + nbx * h, p2y = vy + nby * h
            let s = ((p2x - p1x) * by - (p2y - p1y) * bx) / turn
            let t = ((p2x - p1x) * ay - (p2y - p1y) * ax) / turn
            if s <= 0 && s >= -la && t >= 0 && t <= lb {
                emit(p1x + s * ax, p1y + s * ay)
            } else {
                emit(p1x, p1y); emit(vx, vy); emit(p2x, p2y)
            }
            return
        }
        // Outer side.
        let style: CGLineJoin = isCorner ? join : .round
        if style == .round {
            // (turn < 0 here. Most vertices of a curve turn surely less than the arc step: known
            // without the arc tangent.)
            let sweep = dot > 0 && -turn < flatTurn * dot ? 0 : (turn == 0 ? -Double.pi : atan2(turn, dot))
            if !isCorner && arcSegments(sweep) <= 1 && 1 + dot > 1e-12 {
                // Inside a curve, a turn whose round join needs no point between the two offsets
                // (the chord from one to the other lies within the tolerance of the arc): the
                // arc's midpoint alone. Its two edges lie within the tolerance of the offsets as
                // that chord does, and the outline has one point a vertex instead of two. (Not at
                // a path's own corners: there the offsets of straight segments, often long,
                // stay exact.)
                let k = h / (2 * (1 + dot)).squareRoot()
                emit(vx + (nax + nbx) * k, vy + (nay + nby) * k)
                return
            }
            emit(vx + nax * h, vy + nay * h)
            arc(vx, vy, nax, nay, sweep: sweep, emit, inner: true)
            emit(vx + nbx * h, vy + nby * h)
            return
        }
        emit(vx + nax * h, vy + nay * h)
        if style == .miter {
            let cosHalf = ((1 + dot) / 2).squareRoot()  // cos of half the angle between a and b
            if cosHalf > 1e-9 && 1 / cosHalf <= miterLimit {
                let k = h / (1 + dot)
                emit(vx + (nax + nbx) * k, vy + (nay + nby) * k)
            }
        }
        emit(vx + nbx * h, vy + nby * h)
    }

    /// The chords a round join or cap turning by `sweep` radians is drawn with.
    @inline(__always)
    private func arcSegments(_ sweep: Double) -> Int { Int((abs(sweep) / arcStep).rounded(.up)) }

    /// Points on the circle of radius halfWidth around (cx, cy) from direction (ux, uy) turning by
    /// `sweep` radians, excluding both ends.
    @inline(__always)
    private func arc(_ cx: Double, _ cy: Double, _ ux: Double, _ uy: Double, sweep: Double,
                     _ emit: (Double, Double) -> Void, inner: Bool = true) {
        let n = arcSegments(sweep)
        guard n > 1 else { return }
        let h = halfWidth
        for i in 1..<n {
            let a = sweep * Double(i) / Double(n)
            let c = cos(a), s = sin(a)
            emit(cx + (ux * c - uy * s) * h, cy + (ux * s + uy * c) * h)
        }
    }
}

/// The stroker's working buffers, kept between strokes (one per worker).
struct StrokeScratch {
    var xs: [Double] = [], ys: [Double] = []
    var corner: [Bool] = []
    var reversedXs: [Double] = [], reversedYs: [Double] = []
    var reversedCorner: [Bool] = []

    /// Moves a buffer out, emptied, keeping its capacity (unique, so appending copies nothing).
    mutating func take<T>(_ path: WritableKeyPath<StrokeScratch, [T]>) -> [T] {
        var b: [T] = []
        swap(&b, &self[keyPath: path])
        b.removeAll(keepingCapacity: true)
        return b
    }
}

extension FlatPath.Subpath {
    /// The most pattern repeats `dashed` cuts one polyline into (see there).
    static let maximumDashes = 100_000.0

    /// The "on" pieces of a dash pattern along this polyline, starting `phase` into the
    /// pattern; ends of pieces are corners (they get caps). On a closed polyline a dash running
    /// through the start point is one piece.
    func dashed(_ pattern: [Double], phase: Double) -> [FlatPath.Subpath] {
        let total = pattern.reduce(0, +)
        guard total > 0, points.count > 1 else { return [] }
        // A pattern so fine that this polyline would hold more than `maximumDashes` of it (a
        // [0, 1e-300] pattern along a circle: the fuzzer's, which cut dashes until memory ran
        // out, the steps lost below the coordinates' precision) is drawn solid: its dashes are
        // far finer than a pixel wherever the polyline is on screen.
        var length = 0.0
        for i in 0..<(isClosed ? points.count : points.count - 1) {
            let a = points[i], b = points[(i + 1) % points.count]
            length += hypot(Double(b.x - a.x), Double(b.y - a.y))
        }
        guard length.isFinite, length / total <= Self.maximumDashes else { return [self] }
        var k = 0
        var left = 0.0
        var p = phase.truncatingRemainder(dividingBy: total)
        if p < 0 { p += total }
        // (A phase of 0 keeps a leading zero-length dash: a dot with round caps.)
        while p > 0 && p >= pattern[k] { p -= pattern[k]; k = (k + 1) % pattern.count }
        left = pattern[k] - p
        var on = k % 2 == 0
        var pieces: [FlatPath.Subpath] = []
        var current = FlatPath.Subpath()
        if on { current.points = [points[0]]; current.corners = [true] }
        let n = isClosed ? points.count : points.count - 1
        for i in 0..<n {
            let a = points[i], b = points[(i + 1) % points.count]
            let dx = Double(b.x - a.x), dy = Double(b.y - a.y)
            let len = (dx * dx + dy * dy).squareRoot()
            var at = 0.0
            while len - at > left {
                at += left
                let q = CGPoint(x: Double(a.x) + dx * at / len, y: Double(a.y) + dy * at / len)
                if on {
                    current.points.append(q); current.corners.append(true)
                    pieces.append(current)
                    current = FlatPath.Subpath()
                } else {
                    current.points = [q]; current.corners = [true]
                }
                on.toggle()
                k = (k + 1) % pattern.count
                left = pattern[k]
            }
            left -= len - at
            if on {
                current.points.append(b)
                current.corners.append(corners[(i + 1) % points.count])
            }
        }
        if on && current.points.count > 1 {
            if isClosed, let first = pieces.first, first.points.first == points[0], pattern.count > 0 {
                // The dash through the start point: join the last piece to the first.
                var joined = current
                joined.points += first.points.dropFirst()
                joined.corners += first.corners.dropFirst()
                pieces[0] = joined
            } else {
                pieces.append(current)
            }
        }
        return pieces
    }
}
