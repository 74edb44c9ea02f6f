// Merge paths (`mm` 2…5): the area of the outlines above the merge combined into one outline, as
// After Effects' Merge Paths does — add (union), subtract (the first minus the others),
// intersect, exclude intersections — each outline after the first combined with the result so
// far, every outline filled by the nonzero rule. The outlines are polygons here: curves are
// flattened into chords (within a ten-thousandth of the outlines' size, at most 0.05 points).
//
// The combination, on the segments of all the polygons at once:
//   1. every segment is cut where another crosses it, touches it or runs along it (a grid of
//      about one cell a segment finds the pairs whose boxes overlap), and the pieces' ends are
//      merged when they lie within a billionth of the size of each other, so that pieces along
//      the same line have the same ends and fall into one bundle;
//   2. bundles that follow each other through vertices where only the two of them meet (most of
//      a flattened curve) form a chain with the same two regions on its sides; for each chain a
//      ray from the midpoint of one of its bundles along +x counts the other pieces it crosses
//      (a grid of bands along y finds them; a piece's end exactly on the ray counts as above
//      it): the winding number of every operand on the bundle's +x side (its +y side when it is
//      level); the other side differs by the bundle's own pieces, each +1 or −1 by its direction;
//   3. a chain is kept when the combination is inside on one side and outside on the other,
//      each bundle directed with the inside on its left — (−dy, dx), as the rectangles After
//      Effects draws;
//   4. the kept pieces are chained into closed contours, at a vertex where several leave taking
//      the one that turns most to the left (so two shapes touching at a corner stay two contours),
//      and vertices in a straight line are dropped.
// Outer contours and holes then run opposite ways and do not overlap: the nonzero and even-odd
// rules fill the same area. The work is bounded (segments, steps): past a bound the merge fails.
import Foundation
import Strata

/// How merge paths (`mm`) combine the paths above them.
enum LottieMergeMode: Int, Sendable {
    /// 1: the paths drawn as one compound path (nothing is computed).
    case merge = 1
    /// 2: the union of their areas.
    case add
    /// 3: the first's area minus the others'.
    case subtract
    /// 4: the area inside all of them.
    case intersect
    /// 5: the area inside an odd number of them (each combined with the result by exclusive or).
    case exclude
}

/// Area booleans of outlines, within bounds on the work.
struct LottiePathBoolean {
    /// Why a combination stopped: more segments than `segmentLimit`, or more steps than `stepLimit`.
    enum Failure: Error, Equatable {
        case segments(Int)
        case steps
    }

    /// Most segments (chords of the flattened curves) one combination takes.
    var segmentLimit = 100_000
    /// Most steps of one combination (pairs of segments tested, cuts, pieces a ray looks at).
    var stepLimit = 50_000_000
    /// The steps the combinations so far took (a failed one counts those it took).
    private(set) var stepsTaken = 0

    // MARK: Outlines

    /// The outline that merge mode `mode` makes of `operands` (each a path's contours, open ones
    /// closed), as closed polygons; `mode` .merge returns the contours as they are.
    mutating func combine(_ operands: [[LottieBezier]], mode: LottieMergeMode) throws -> [LottieBezier] {
        guard mode != .merge else { return operands.flatMap { $0 } }
        var box = CGRect.null
        for c in operands.joined() {
            for k in c.vertices.indices {
                for p in [c.vertices[k], c.vertices[k] + c.inTangents[k], c.vertices[k] + c.outTangents[k]] where p.x.isFinite && p.y.isFinite {
                    box = box.union(CGRect(origin: p, size: .zero))
                }
            }
        }
        guard !box.isNull else { return [] }
        let tolerance = min(0.05, max(max(box.width, box.height) * 1e-4, 1e-9))
        var budget = segmentLimit
        let polygons = try operands.map { contours in try contours.compactMap { try Self.flatten($0, tolerance: tolerance, budget: &budget, limit: segmentLimit) } }
        return try combine(polygons: polygons, mode: mode).map {
            LottieBezier(closed: true, vertices: $0, inTangents: Array(repeating: .zero, count: $0.count),
                         outTangents: Array(repeating: .zero, count: $0.count))
        }
    }

    /// A contour as a polygon: each curved segment cut into chords at most `tolerance` from it
    /// (a cubic with second differences up to L strays at most ¾·L/n² from n even chords), an
    /// open contour closed. `budget`: segments still allowed, reduced by these.
    static func flatten(_ c: LottieBezier, tolerance: Double, budget: inout Int, limit: Int) throws -> [CGPoint]? {
        let n = c.vertices.count
        guard n > 1 else { return nil }
        var out: [CGPoint] = [c.vertices[0]]
        for k in 0..<n {
            let a = c.vertices[k], b = c.vertices[(k + 1) % n]
            let c1 = a + c.outTangents[k], c2 = b + c.inTangents[(k + 1) % n]
            var chords = 1
            if (k < n - 1 || c.closed) && (c1 != a || c2 != b) {
                let l = max((a - c1 * 2 + c2).length, (c1 - c2 * 2 + b).length)
                // A handle too long to compute with (not a finite number) is left straight.
                let wanted = (0.75 * l / tolerance).squareRoot().rounded(.up)
                chords = wanted.isFinite ? Int(min(max(wanted, 1), Double(limit) + 1)) : 1
            }
            budget -= chords
            guard budget >= 0 else { throw Failure.segments(limit - budget) }
            if chords == 1 { out.append(b); continue }
            for j in 1...chords {
                let t = Double(j) / Double(chords), u = 1 - t
                let p = a * (u * u * u) + c1 * (3 * u * u * t) + c2 * (3 * u * t * t) + b * (t * t * t)
                out.append(j == chords ? b : p)
            }
        }
        return out
    }

    // MARK: Polygons

    /// The area `mode` makes of `operands` (each a list of closed polygons filled by the nonzero
    /// rule; a polygon's last point joins its first), as closed polygons with the inside on the
    /// left of each, (−dy, dx): outer ones and holes run opposite ways and never overlap.
    mutating func combine(polygons operands: [[[CGPoint]]], mode: LottieMergeMode) throws -> [[CGPoint]] {
        var graph = try Graph(operands, segmentLimit: segmentLimit, stepLimit: stepLimit)
        defer { stepsTaken += min(graph.steps, stepLimit) }
        guard graph.segmentCount > 0 else { return [] }
        try graph.cut()
        graph.join()
        try graph.classify(mode)
        return graph.chain()
    }
}

/// The segments of the operands, cut into pieces that meet only at their ends.
private struct Graph {
    let stepLimit: Int
    var steps = 0
    let operandCount: Int
    // Segments (a → b) and their operands.
    var a: [CGPoint] = [], b: [CGPoint] = [], operand: [Int] = []
    var segmentCount: Int { a.count }
    var origin = CGPoint.zero
    /// Distances below this are nothing (a billionth of the operands' size).
    var eps = 1e-12
    /// Where segments are cut: (segment, parameter along it, the point).
    var cuts: [(segment: Int, t: Double, point: CGPoint)] = []
    // Vertices, and pieces between them (from → to, operand, bundle).
    var vertices: [CGPoint] = []
    var from: [Int] = [], to: [Int] = [], pieceOperand: [Int] = [], bundle: [Int] = []
    /// Each bundle's lower and upper vertex, and its pieces (those joining the same two vertices).
    var bundles: [(u: Int, v: Int)] = []
    var pieces = Lists(count: 0, keys: [], items: [])
    /// The bundles kept, directed: (from, to).
    var kept: [(Int, Int)] = []

    init(_ operands: [[[CGPoint]]], segmentLimit: Int, stepLimit: Int) throws {
        self.stepLimit = stepLimit
        operandCount = operands.count
        var lo = CGPoint(x: Double.infinity, y: Double.infinity), hi = CGPoint(x: -Double.infinity, y: -Double.infinity)
        for (k, rings) in operands.enumerated() {
            for ring in rings {
                var points: [CGPoint] = []
                for p in ring where p.x.isFinite && p.y.isFinite && p != points.last {
                    // Far outside anything drawn; keeps the arithmetic finite.
                    points.append(CGPoint(x: min(max(p.x, -1e9), 1e9), y: min(max(p.y, -1e9), 1e9)))
                }
                while points.count > 1 && points.first == points.last { points.removeLast() }
                guard points.count >= 3 else { continue }
                guard a.count + points.count <= segmentLimit else { throw LottiePathBoolean.Failure.segments(a.count + points.count) }
                for i in points.indices {
                    a.append(points[i]); b.append(points[(i + 1) % points.count]); operand.append(k)
                    lo = CGPoint(x: min(lo.x, points[i].x), y: min(lo.y, points[i].y))
                    hi = CGPoint(x: max(hi.x, points[i].x), y: max(hi.y, points[i].y))
                }
            }
        }
        if !a.isEmpty {
            origin = lo
            eps = max(max(hi.x - lo.x, hi.y - lo.y) * 1e-9, 1e-12)
        }
    }

    mutating func step(_ n: Int = 1) throws {
        steps += n
        if steps > stepLimit { throw LottiePathBoolean.Failure.steps }
    }

    // MARK: 1. Cuts

    /// Finds where segments cross, touch or overlap: the pairs whose boxes (grown by eps) overlap,
    /// found in a grid of about one cell a segment, each pair tested once (in the cell holding
    /// the low corner of the boxes' overlap).
    mutating func cut() throws {
        let n = a.count
        let loX = (0..<n).map { min(a[$0].x, b[$0].x) - eps }, hiX = (0..<n).map { max(a[$0].x, b[$0].x) + eps }
        let loY = (0..<n).map { min(a[$0].y, b[$0].y) - eps }, hiY = (0..<n).map { max(a[$0].y, b[$0].y) + eps }
        let side = min(max(Int(Double(n).squareRoot().rounded(.up)), 1), 1024)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for i in 0..<n { minX = min(minX, loX[i]); maxX = max(maxX, hiX[i]); minY = min(minY, loY[i]); maxY = max(maxY, hiY[i]) }
        let width = max((maxX - minX) / Double(side), eps), height = max((maxY - minY) / Double(side), eps)
        func column(_ x: Double) -> Int { min(max(Int(((x - minX) / width).rounded(.down)), 0), side - 1) }
        func row(_ y: Double) -> Int { min(max(Int(((y - minY) / height).rounded(.down)), 0), side - 1) }
        // The cells' segments, one list after the other (counted, then placed).
        var start = [Int](repeating: 0, count: side * side + 1)
        for i in 0..<n {
            let c0 = column(loX[i]), c1 = column(hiX[i]), r0 = row(loY[i]), r1 = row(hiY[i])
            try step((c1 - c0 + 1) * (r1 - r0 + 1))
            for r in r0...r1 { for c in c0...c1 { start[r * side + c + 1] += 1 } }
        }
        for k in 0..<side * side { start[k + 1] += start[k] }
        var members = [Int](repeating: 0, count: start[side * side])
        var fill = start
        for i in 0..<n {
            for r in row(loY[i])...row(hiY[i]) {
                for c in column(loX[i])...column(hiX[i]) { members[fill[r * side + c]] = i; fill[r * side + c] += 1 }
            }
        }
        for cell in 0..<side * side {
            let list = members[start[cell]..<start[cell + 1]]
            for (offset, i) in list.enumerated() {
                for j in list.dropFirst(offset + 1) {
                    try step()
                    guard loX[j] <= hiX[i] && loX[i] <= hiX[j] && loY[j] <= hiY[i] && loY[i] <= hiY[j] else { continue }
                    guard row(max(loY[i], loY[j])) * side + column(max(loX[i], loX[j])) == cell else { continue }
                    try meet(i, j)
                }
            }
        }
    }

    /// Cuts segment `i` at `p` (a point on it) unless `p` is within eps of an end.
    mutating func cut(_ i: Int, at p: CGPoint) throws {
        let r = b[i] - a[i]
        let length = r.length
        let t = ((p.x - a[i].x) * r.x + (p.y - a[i].y) * r.y) / (length * length)
        guard t * length > eps && (1 - t) * length > eps else { return }
        try step()
        cuts.append((i, t, p))
    }

    /// Cuts segments `i` and `j` where they meet.
    mutating func meet(_ i: Int, _ j: Int) throws {
        let p = a[i], q = b[i], c = a[j], d = b[j]
        let r = q - p, s = d - c
        let lr = r.length, ls = s.length
        // Signed distances (times the other segment's length) of each end from the other's line.
        let o1 = cross(r, c - p), o2 = cross(r, d - p), o3 = cross(s, p - c), o4 = cross(s, q - c)
        let cOn = abs(o1) <= eps * lr, dOn = abs(o2) <= eps * lr, pOn = abs(o3) <= eps * ls, qOn = abs(o4) <= eps * ls
        if cOn || dOn || pOn || qOn {
            // Touching or overlapping: an end on the other segment cuts it there.
            if cOn { try cut(i, at: c) }
            if dOn { try cut(i, at: d) }
            if pOn { try cut(j, at: p) }
            if qOn { try cut(j, at: q) }
            return
        }
        guard (o1 > 0) != (o2 > 0) && (o3 > 0) != (o4 > 0) else { return }
        // A crossing: the same point cuts both.
        let x = p + r * (o3 / (o3 - o4))
        try cut(i, at: x)
        try cut(j, at: x)
    }

    func cross(_ u: CGPoint, _ v: CGPoint) -> Double { u.x * v.y - u.y * v.x }

    // MARK: Pieces

    /// Makes the vertices (cut points and segment ends, merged within 4·eps) and the pieces
    /// between them, grouped into bundles.
    mutating func join() {
        let radius = 4 * eps, size = 8 * radius
        // A grid of cells 8 radii wide: the first vertex in each, then the next in the same cell.
        // A point's neighbours within the radius are in its cell, or in the next one where it
        // is within the radius of that side.
        var first: [Int: Int] = [:], following: [Int] = []
        first.reserveCapacity(a.count + cuts.count)
        func key(_ cx: Int, _ cy: Int) -> Int { (cx + 1) * 2_147_483_648 + cy + 1 }
        var last = (point: CGPoint(x: Double.nan, y: 0), id: -1)
        func vertex(_ p: CGPoint) -> Int {
            if p == last.point { return last.id }   // the next segment's start is this one's end
            let x = (p.x - origin.x) / size, y = (p.y - origin.y) / size
            let cx = Int(x.rounded(.down)), cy = Int(y.rounded(.down))
            let fx = (x - Double(cx)) * size, fy = (y - Double(cy)) * size
            let xs = fx < radius ? -1...0 : fx > size - radius ? 0...1 : 0...0
            let ys = fy < radius ? -1...0 : fy > size - radius ? 0...1 : 0...0
            var best = -1, bestDistance = Double.infinity
            for dx in xs {
                for dy in ys {
                    var id = first[key(cx + dx, cy + dy)] ?? -1
                    while id >= 0 {
                        let d = (vertices[id] - p).length
                        if d <= radius && d < bestDistance { best = id; bestDistance = d }
                        id = following[id]
                    }
                }
            }
            if best < 0 {
                best = vertices.count
                vertices.append(p)
                following.append(first[key(cx, cy)] ?? -1)
                first[key(cx, cy)] = best
            }
            last = (p, best)
            return best
        }
        cuts.sort { $0.segment != $1.segment ? $0.segment < $1.segment : $0.t < $1.t }
        var bundleOf: [Int: Int] = [:]
        bundleOf.reserveCapacity(a.count + cuts.count)
        var next = 0
        var ids: [Int] = []
        for i in 0..<a.count {
            ids.removeAll(keepingCapacity: true)
            ids.append(vertex(a[i]))
            while next < cuts.count && cuts[next].segment == i {
                ids.append(vertex(cuts[next].point))
                next += 1
            }
            ids.append(vertex(b[i]))
            for k in 1..<ids.count where ids[k] != ids[k - 1] {
                let u = min(ids[k - 1], ids[k]), v = max(ids[k - 1], ids[k])
                let index: Int
                if let known = bundleOf[u << 32 | v] {
                    index = known
                } else {
                    index = bundles.count
                    bundleOf[u << 32 | v] = index
                    bundles.append((u, v))
                }
                from.append(ids[k - 1]); to.append(ids[k]); pieceOperand.append(operand[i]); bundle.append(index)
            }
        }
        pieces = Lists(count: bundles.count, keys: bundle, items: Array(bundle.indices))
    }

    // MARK: 2–3. Sides

    /// Keeps the bundles with the combination inside on one side only, directed inside-left.
    /// Bundles that follow each other through vertices where only the two of them meet (most of
    /// a flattened curve) form a chain with the same two regions on its sides: one ray a chain.
    mutating func classify(_ mode: LottieMergeMode) throws {
        guard !bundles.isEmpty else { return }
        // Bands along y, each listing the pieces whose y range meets it.
        var lo = Double.infinity, hi = -Double.infinity
        for p in vertices { lo = min(lo, p.y); hi = max(hi, p.y) }
        let bandCount = max(1, min(from.count / 4, 4096))
        let height = max((hi - lo) / Double(bandCount), eps)
        func band(_ y: Double) -> Int { min(max(Int(((y - lo) / height).rounded(.down)), 0), bandCount - 1) }
        var bandKeys: [Int] = [], bandItems: [Int] = []
        for e in from.indices {
            let y0 = vertices[from[e]].y, y1 = vertices[to[e]].y
            let first = band(min(y0, y1)), last = band(max(y0, y1))
            try step(last - first + 1)
            for k in first...last { bandKeys.append(k); bandItems.append(e) }
        }
        let bands = Lists(count: bandCount, keys: bandKeys, items: bandItems)
        let meeting = Lists(count: vertices.count, keys: bundles.flatMap { [$0.u, $0.v] }, items: bundles.indices.flatMap { [$0, $0] })
        var winding = [Int](repeating: 0, count: operandCount), change = winding
        var seen = [Int](repeating: -1, count: operandCount)
        var touched: [Int] = []
        var done = [Bool](repeating: false, count: bundles.count)
        for (index, bundle) in bundles.enumerated() where !done[index] {
            // The chain through this bundle, each with whether it runs u → v along the chain.
            var chain = [(index, true)]
            done[index] = true
            for forward in [true, false] {
                var at = forward ? bundle.v : bundle.u, came = index
                while meeting[at].count == 2 {
                    let pair = meeting[at]
                    let next = pair.first! == came ? pair.last! : pair.first!
                    guard !done[next] else { break }
                    done[next] = true
                    let b = bundles[next]
                    // Leaving `at`: the chain runs that way forward, the other way backward.
                    chain.append((next, forward ? b.u == at : b.v == at))
                    at = b.u == at ? b.v : b.u
                    came = next
                }
            }
            // The ray leaves the chain's longest bundle (its midpoint farthest from other pieces).
            func length(_ k: Int) -> Double { (vertices[bundles[k].v] - vertices[bundles[k].u]).length }
            let (probe, probeAlong) = chain.max { length($0.0) < length($1.0) }!
            let pu = vertices[bundles[probe].u], pv = vertices[bundles[probe].v]
            func touch(_ k: Int) {
                if seen[k] != index { seen[k] = index; touched.append(k) }
            }
            let m = CGPoint(x: (pu.x + pv.x) / 2, y: (pu.y + pv.y) / 2)
            // The winding of each operand along a ray from the midpoint to +x.
            let candidates = bands[band(m.y)]
            try step(candidates.count + pieces[probe].count)
            for e in candidates where self.bundle[e] != probe {
                let p0 = vertices[from[e]], p1 = vertices[to[e]]
                guard (p0.y <= m.y) != (p1.y <= m.y) else { continue }
                let x = p0.x + (m.y - p0.y) * (p1.x - p0.x) / (p1.y - p0.y)
                guard x > m.x else { continue }
                let k = pieceOperand[e]
                touch(k)
                winding[k] += p1.y > p0.y ? 1 : -1
            }
            // The bundle's own pieces: the winding on its left minus that on its right.
            for e in pieces[probe] {
                let k = pieceOperand[e]
                touch(k)
                change[k] += from[e] == bundles[probe].u ? 1 : -1
            }
            let d = pv - pu
            let measuredLeft = d.y != 0 ? d.y < 0 : d.x > 0
            // How many operands are inside on each side, and whether the first is.
            var insideLeft = 0, insideRight = 0
            var firstLeft = false, firstRight = false
            for k in touched {
                let left = measuredLeft ? winding[k] : winding[k] + change[k]
                let right = measuredLeft ? winding[k] - change[k] : winding[k]
                if left != 0 { insideLeft += 1; if k == 0 { firstLeft = true } }
                if right != 0 { insideRight += 1; if k == 0 { firstRight = true } }
                winding[k] = 0
                change[k] = 0
            }
            touched.removeAll(keepingCapacity: true)
            func inside(_ count: Int, _ first: Bool) -> Bool {
                switch mode {
                case .merge, .add: count > 0
                case .subtract: first && count == 1
                case .intersect: count == operandCount
                case .exclude: count % 2 == 1
                }
            }
            // Left and right of the chain: of the probe, as it runs along the chain.
            var l = inside(insideLeft, firstLeft), r = inside(insideRight, firstRight)
            if !probeAlong { swap(&l, &r) }
            guard l != r else { continue }
            for (k, along) in chain {
                let b = bundles[k]
                kept.append(along == l ? (b.u, b.v) : (b.v, b.u))
            }
        }
    }

    // MARK: 4. Contours

    /// Chains the kept pieces into closed polygons.
    func chain() -> [[CGPoint]] {
        let leaving = Lists(count: vertices.count, keys: kept.map(\.0), items: Array(kept.indices))
        var used = [Bool](repeating: false, count: kept.count)
        var out: [[CGPoint]] = []
        for first in kept.indices where !used[first] {
            let start = kept[first].0
            var ring = [vertices[start]]
            var current = first
            while true {
                used[current] = true
                let (u, v) = kept[current]
                if v == start { break }
                ring.append(vertices[v])
                // The piece that turns most to the left of the way in.
                let way = vertices[v] - vertices[u]
                var best = -1, bestTurn = -Double.infinity
                for e in leaving[v] where !used[e] {
                    let w = vertices[kept[e].1] - vertices[v]
                    let turn = atan2(cross(way, w), way.x * w.x + way.y * w.y)
                    if turn > bestTurn { best = e; bestTurn = turn }
                }
                guard best >= 0 else { break }
                current = best
            }
            let simple = straightened(ring)
            if simple.count >= 3 { out.append(simple) }
        }
        return out
    }

    /// The ring without vertices that lie within eps of the line through their neighbours,
    /// between them.
    func straightened(_ ring: [CGPoint]) -> [CGPoint] {
        func between(_ p: CGPoint, _ x: CGPoint, _ q: CGPoint) -> Bool {
            let v = q - p
            let l = v.length
            return l > 0 && abs(cross(v, x - p)) <= eps * l && ((x - p).x * v.x + (x - p).y * v.y) > 0
                && ((q - x).x * v.x + (q - x).y * v.y) > 0
        }
        var out: [CGPoint] = []
        for p in ring {
            while out.count >= 2 && between(out[out.count - 2], out[out.count - 1], p) { out.removeLast() }
            out.append(p)
        }
        var start = 0
        while out.count - start >= 3 {
            if between(out[out.count - 2], out[out.count - 1], out[start]) { out.removeLast() } else if between(out[out.count - 1], out[start], out[start + 1]) { start += 1 } else { break }
        }
        return Array(out[start...])
    }
}

/// Lists of integers by key (0..<count), one after the other: `keys[i]`'s list holds `items[i]`,
/// in the order given.
private struct Lists {
    private var start: [Int]
    private var items: [Int]

    init(count: Int, keys: [Int], items values: [Int]) {
        start = [Int](repeating: 0, count: count + 1)
        for k in keys { start[k + 1] += 1 }
        for k in 0..<count { start[k + 1] += start[k] }
        items = [Int](repeating: 0, count: values.count)
        var fill = start
        for (k, v) in zip(keys, values) {
            items[fill[k]] = v
            fill[k] += 1
        }
    }

    subscript(key: Int) -> ArraySlice<Int> { items[start[key]..<start[key + 1]] }
}
