// 3D layers in depth: z positions, anchor z, orientation (`or`) and the camera (`ty` 13). A
// layer that uses any of them is drawn through one node whose transform is the projective map
// of its plane: its model (anchor z, rotations, orientation, position) then, without a camera,
// an eye 1 024 points in front of the layer's x/y position (the distance rlottie and ThorVG
// use, so a flat layer at z 0 is drawn as before), or the camera's view and projection. Its
// depth becomes the layer's zPosition, so the renderer paints siblings far to near.
import Foundation
import Strata

/// A composition's camera: where it is and how far its zoom puts the plane drawn 1:1.
struct LottieCamera {
    /// The camera layer's JSON path.
    var path: String
    /// The zoom (`pe`): the distance from the eye at which 1 unit is 1 pixel.
    var perspective: LottieAnimated<[Double]>
    /// Its transform: 3D position, point of interest (`a`, a two-node camera), `or`, `rx`/`ry`/`rz`.
    var transform: LottieTransform
}

extension LottieCompiler {
    /// The distance of the eye in front of a 3D layer without a camera (rlottie's and ThorVG's).
    static let defaultEyeDistance = 1024.0

    /// Whether a transform moves its layer in depth or turns it by `or`: the node of `spaceNode`.
    func needsSpace(_ t: LottieTransform, path: String) -> Bool {
        func scripted(_ key: String) -> Bool { animation.expressions.contains(path + "." + key) || animation.loops[path + "." + key] != nil }
        if t.position?.hasNonZero(dimension: 2) == true || t.positionZ?.hasNonZero(dimension: 0) == true { return true }
        if t.anchor?.hasNonZero(dimension: 2) == true { return true }
        if let o = t.orientation, (0..<3).contains(where: { o.hasNonZero(dimension: $0) }) { return true }
        // An expression may give a 3D layer a z (on `p` as a whole too): drawn in depth, where a
        // z of 0 draws as a flat layer does.
        return t.is3D && (scripted("or") || scripted("p.z") || scripted("p"))
    }

    /// The node that turns, moves in depth and projects a 3D layer's plane (the rotation and
    /// x/y tilt nodes are then left out); its depth is animated on `depthLayer`'s zPosition.
    /// With the camera the node holds the position too (`transformNodes` leaves it out).
    /// `heading` (radians, auto-orient) adds to the z rotation; `parents` (outermost first) are
    /// composed in 3D, each with its anchor, scale, skew, rotations, orientation and position.
    func spaceNode(_ t: LottieTransform, _ time: LottieTime, path: String, seenBy camera: LottieCamera?, depthLayer: CALayer?,
                   heading: ((Double) -> Double)? = nil, parents: [LottieLayerModel] = []) throws -> CALayer {
        let l = node()
        let zero = LottieAnimated<[Double]>.fixed([0])
        let rx = sampler(t.rotationX ?? zero, path: path + ".rx"), ry = sampler(t.rotationY ?? zero, path: path + ".ry")
        let rotationKey = animation.expressions.contains(path + ".rz") || animation.loops[path + ".rz"] != nil ? "rz" : "r"
        let rz = sampler(t.rotation ?? zero, path: path + "." + rotationKey)
        let or = sampler(t.orientation ?? .fixed([0, 0, 0]), path: path + ".or")
        let anchor = sampler(t.anchor ?? .fixed([0, 0, 0]), path: path + ".a")
        let scale = sampler(t.scale ?? .fixed([100, 100, 100]), path: path + ".s")
        let position = positionSampler(t, path: path)
        let parentModels = parents.reversed().map { modelSampler($0.transform, path: $0.path + ".ks") }
        // Without a camera the eye is in front of the outermost parent's place when that parent is
        // 3D (the layers of one rig share one space), else in front of the layer's own.
        let rig = parents.first.flatMap { $0.transform.is3D ? positionSampler($0.transform, path: $0.path + ".ks") : nil }
        let view = camera.map { cameraView($0) }
        let centre = (animation.width / 2, animation.height / 2)
        let placed: (Double) -> (CATransform3D, Double) = { f in
            func at(_ v: [Double], _ i: Int, _ fallback: Double) -> Double { i < v.count ? v[i] : fallback }
            let a = anchor.value(f), s = scale.value(f), p = position.value(f), o = or.value(f)
            let turn = rz.value(f)[0] + (heading.map { $0(f) * 180 / .pi } ?? 0)
            var m = Self.translation(0, 0, -at(a, 2, 0) * at(s, 2, 100) / 100)
            m = CATransform3DConcat(m, Self.rotation(x: rx.value(f)[0], y: ry.value(f)[0], z: turn))
            m = CATransform3DConcat(m, Self.orientation(o))
            m = CATransform3DConcat(m, Self.translation(at(p, 0, 0), at(p, 1, 0), at(p, 2, 0)))
            for parent in parentModels { m = CATransform3DConcat(m, parent.value(f)) }
            if let view {
                let (v, zoom) = view(f)
                m = CATransform3DConcat(m, v)
                let depth = Double(m.m43)
                return (Self.flattened(CATransform3DConcat(m, Self.projection(zoom, centre: centre))), depth)
            }
            // Seen from the default distance in front of the layer's own x/y place.
            let depth = Double(m.m43)
            let rigPlace = rig?.value(f)
            let ox = rigPlace.map { at($0, 0, 0) } ?? Double(m.m41), oy = rigPlace.map { at($0, 1, 0) } ?? Double(m.m42)
            var persp = CATransform3DIdentity
            persp.m34 = CGFloat(1 / Self.defaultEyeDistance)
            m = CATransform3DConcat(m, Self.translation(-ox, -oy, 0))
            m = CATransform3DConcat(CATransform3DConcat(m, persp), Self.translation(ox, oy, 0))
            return (Self.flattened(m), depth)
        }
        let animated = [rx, ry, rz, or, anchor, scale, position].contains { $0.isAnimated } || heading != nil
            || parentModels.contains { $0.isAnimated } || (camera.map { cameraIsAnimated($0) } ?? false)
        if animated {
            try animateSampled(l, "transform", time, path: path) { placed($0).0 }
            if let depthLayer { try animateSampled(depthLayer, "zPosition", time, path: path) { Self.zPosition(placed($0).1) } }
        } else {
            let (m, depth) = placed(time.range.lowerBound)
            l.transform = m
            depthLayer?.zPosition = Self.zPosition(depth)
        }
        return l
    }

    /// A transform's position as x, y, z (a separated position's z from `p.z`; 0 where absent).
    func positionSampler(_ t: LottieTransform, path: String) -> (value: (Double) -> [Double], isAnimated: Bool) {
        let zero = LottieAnimated<[Double]>.fixed([0])
        if let p = t.position { return sampler(p, path: path + ".p") }
        if let x = t.positionX, let y = t.positionY {
            let sx = sampler(x, path: path + ".p.x"), sy = sampler(y, path: path + ".p.y")
            let sz = sampler(t.positionZ ?? zero, path: path + ".p.z")
            return ({ f in [sx.value(f)[0], sy.value(f)[0], sz.value(f)[0]] }, sx.isAnimated || sy.isAnimated || sz.isAnimated)
        }
        return ({ _ in [0, 0, 0] }, false)
    }

    /// A parent's whole transform in 3D at a frame (anchor, scale, skew, x/y/z rotations,
    /// orientation, position), its expressions applied, and whether it changes.
    func modelSampler(_ t: LottieTransform, path: String) -> (value: (Double) -> CATransform3D, isAnimated: Bool) {
        let zero = LottieAnimated<[Double]>.fixed([0])
        let rotationKey = animation.expressions.contains(path + ".rz") || animation.loops[path + ".rz"] != nil ? "rz" : "r"
        let parts = [sampler(t.anchor ?? .fixed([0, 0, 0]), path: path + ".a"), sampler(t.scale ?? .fixed([100, 100, 100]), path: path + ".s"),
                     sampler(t.skew ?? zero, path: path + ".sk"), sampler(t.skewAxis ?? zero, path: path + ".sa"),
                     sampler(t.rotationX ?? zero, path: path + ".rx"), sampler(t.rotationY ?? zero, path: path + ".ry"),
                     sampler(t.rotation ?? zero, path: path + "." + rotationKey), sampler(t.orientation ?? .fixed([0, 0, 0]), path: path + ".or"),
                     positionSampler(t, path: path)]
        return ({ f in
            let v = parts.map { $0.value(f) }
            func at(_ i: Int, _ j: Int, _ fallback: Double) -> Double { j < v[i].count ? v[i][j] : fallback }
            var m = Self.translation(-at(0, 0, 0), -at(0, 1, 0), -at(0, 2, 0))
            let sx = at(1, 0, 100)
            m = CATransform3DConcat(m, CATransform3DMakeScale(CGFloat(sx / 100), CGFloat(at(1, 1, sx) / 100), CGFloat(at(1, 2, 100) / 100)))
            if at(2, 0, 0) != 0 { m = CATransform3DConcat(m, CATransform3DMakeAffineTransform(Self.skewMatrix(at(2, 0, 0), at(3, 0, 0)))) }
            m = CATransform3DConcat(m, Self.rotation(x: at(4, 0, 0), y: at(5, 0, 0), z: at(6, 0, 0)))
            m = CATransform3DConcat(m, Self.orientation(v[7]))
            return CATransform3DConcat(m, Self.translation(at(8, 0, 0), at(8, 1, 0), at(8, 2, 0)))
        }, parts.contains { $0.isAnimated })
    }

    /// The zPosition that paints a layer at `depth` (away from the viewer) far to near; 0 for a
    /// depth out of range.
    static func zPosition(_ depth: Double) -> CGFloat {
        depth.isFinite && abs(depth) < 1e12 ? CGFloat(-depth) : 0
    }

    /// Whether anything of the camera changes over time.
    private func cameraIsAnimated(_ c: LottieCamera) -> Bool {
        let t = c.transform
        let all: [LottieAnimated<[Double]>?] = [c.perspective, t.position, t.positionX, t.positionY, t.positionZ, t.anchor,
                                                 t.orientation, t.rotationX, t.rotationY, t.rotation]
        let keys = ["p", "p.x", "p.y", "p.z", "a", "or", "rx", "ry", "rz", "r"]
        return all.contains { $0?.isAnimated == true }
            || keys.contains { animation.expressions.contains(c.path + ".ks." + $0) }
    }

    /// The camera's view at a frame (world to camera: x right, y down, z away from the eye)
    /// and its zoom. It stands at its position looking at its point of interest (`a`; without
    /// one, along +z), not rolled, then turned by its orientation and rotations.
    func cameraView(_ c: LottieCamera) -> (Double) -> (CATransform3D, Double) {
        let path = c.path + ".ks", t = c.transform, zero = LottieAnimated<[Double]>.fixed([0])
        let zoom = sampler(c.perspective, path: c.path + ".pe")
        let position: (Double) -> [Double]
        if let p = t.position {
            let s = sampler(p, path: path + ".p"); position = s.value
        } else if let x = t.positionX, let y = t.positionY {
            let sx = sampler(x, path: path + ".p.x"), sy = sampler(y, path: path + ".p.y"), sz = sampler(t.positionZ ?? zero, path: path + ".p.z")
            position = { f in [sx.value(f)[0], sy.value(f)[0], sz.value(f)[0]] }
        } else {
            position = { _ in [0, 0, 0] }
        }
        let interest = t.anchor.map { sampler($0, path: path + ".a").value }
        let rx = sampler(t.rotationX ?? zero, path: path + ".rx"), ry = sampler(t.rotationY ?? zero, path: path + ".ry")
        let rz = sampler(t.rotation ?? zero, path: path + ".rz"), or = sampler(t.orientation ?? .fixed([0, 0, 0]), path: path + ".or")
        return { f in
            func v3(_ v: [Double]) -> (Double, Double, Double) { (v.count > 0 ? v[0] : 0, v.count > 1 ? v[1] : 0, v.count > 2 ? v[2] : 0) }
            let p = v3(position(f))
            // The look direction and the basis (right, down, forward) that keeps "down" +y.
            var fw = (0.0, 0.0, 1.0)
            if let interest {
                let a = v3(interest(f))
                let d = (a.0 - p.0, a.1 - p.1, a.2 - p.2), n = (d.0 * d.0 + d.1 * d.1 + d.2 * d.2).squareRoot()
                if n > 1e-9 && n.isFinite { fw = (d.0 / n, d.1 / n, d.2 / n) }
            }
            // right = down × forward, with down = (0, 1, 0); looking straight up or down: x.
            var right = (fw.2, 0.0, -fw.0)
            let rn = (right.0 * right.0 + right.2 * right.2).squareRoot()
            right = rn > 1e-9 ? (right.0 / rn, 0, right.2 / rn) : (1, 0, 0)
            let down = (fw.1 * right.2 - fw.2 * right.1, fw.2 * right.0 - fw.0 * right.2, fw.0 * right.1 - fw.1 * right.0)
            var basis = CATransform3DIdentity
            basis.m11 = CGFloat(right.0); basis.m21 = CGFloat(right.1); basis.m31 = CGFloat(right.2)
            basis.m12 = CGFloat(down.0); basis.m22 = CGFloat(down.1); basis.m32 = CGFloat(down.2)
            basis.m13 = CGFloat(fw.0); basis.m23 = CGFloat(fw.1); basis.m33 = CGFloat(fw.2)
            // The camera's own turn (as a layer's: rotations, then orientation), undone.
            let own = CATransform3DConcat(Self.rotation(x: rx.value(f)[0], y: ry.value(f)[0], z: rz.value(f)[0]), Self.orientation(or.value(f)))
            var view = CATransform3DConcat(Self.translation(-p.0, -p.1, -p.2), basis)
            view = CATransform3DConcat(view, Self.transposed(own))
            return (view, zoom.value(f)[0])
        }
    }

    /// A translation by (x, y, z).
    static func translation(_ x: Double, _ y: Double, _ z: Double) -> CATransform3D {
        CATransform3DMakeTranslation(CGFloat(x), CGFloat(y), CGFloat(z))
    }

    /// Rotations by `x`, then `y`, then `z` degrees (the order of the tilt: anchor, scale, x, y, z),
    /// signed as the tilt draws them: about x a positive angle brings the lower edge nearer, about y
    /// the right edge; about z clockwise on the screen (y down).
    static func rotation(x: Double, y: Double, z: Double) -> CATransform3D {
        let ax = x * .pi / 180, ay = y * .pi / 180, az = z * .pi / 180
        var rx = CATransform3DIdentity
        rx.m22 = CGFloat(cos(ax)); rx.m23 = CGFloat(-sin(ax)); rx.m32 = CGFloat(sin(ax)); rx.m33 = CGFloat(cos(ax))
        var ry = CATransform3DIdentity
        ry.m11 = CGFloat(cos(ay)); ry.m13 = CGFloat(-sin(ay)); ry.m31 = CGFloat(sin(ay)); ry.m33 = CGFloat(cos(ay))
        var rz = CATransform3DIdentity
        rz.m11 = CGFloat(cos(az)); rz.m12 = CGFloat(sin(az)); rz.m21 = CGFloat(-sin(az)); rz.m22 = CGFloat(cos(az))
        return CATransform3DConcat(CATransform3DConcat(rx, ry), rz)
    }

    /// Orientation `or` (x, y, z degrees), applied after the rotations as lottie-web's
    /// TransformProperty does: its z turn first, then y, then x, each signed as the rotations.
    static func orientation(_ o: [Double]) -> CATransform3D {
        let r = { (i: Int) in i < o.count ? o[i] : 0 }
        return CATransform3DConcat(CATransform3DConcat(rotation(x: 0, y: 0, z: r(2)), rotation(x: 0, y: r(1), z: 0)), rotation(x: r(0), y: 0, z: 0))
    }

    /// The camera's projection: the zoom's distance maps 1:1, the composition's centre the principal point.
    static func projection(_ zoom: Double, centre: (Double, Double)) -> CATransform3D {
        var m = CATransform3DIdentity
        m.m11 = CGFloat(zoom); m.m22 = CGFloat(zoom)
        m.m31 = CGFloat(centre.0); m.m32 = CGFloat(centre.1); m.m33 = 0; m.m34 = 1; m.m44 = 0
        return m
    }

    /// A rotation's inverse.
    static func transposed(_ m: CATransform3D) -> CATransform3D {
        var t = m
        t.m12 = m.m21; t.m21 = m.m12; t.m13 = m.m31; t.m31 = m.m13; t.m23 = m.m32; t.m32 = m.m23
        return t
    }

    /// The projective map of the plane z = 0 a 3D map gives (z dropped, the homogeneous scale
    /// made 1 at the layer's origin); where the origin is at or behind the eye, or a value is out
    /// of range (a position of 1e300), nothing (scale 0).
    static func flattened(_ m: CATransform3D) -> CATransform3D {
        let w = m.m44
        guard w > 1e-6, w.isFinite else { return CATransform3DMakeScale(0, 0, 1) }
        var f = CATransform3DIdentity
        f.m11 = m.m11 / w; f.m12 = m.m12 / w; f.m14 = m.m14 / w
        f.m21 = m.m21 / w; f.m22 = m.m22 / w; f.m24 = m.m24 / w
        f.m41 = m.m41 / w; f.m42 = m.m42 / w; f.m44 = 1
        let entries = [f.m11, f.m12, f.m14, f.m21, f.m22, f.m24, f.m41, f.m42]
        return entries.allSatisfy { $0.isFinite && abs($0) < 1e12 } ? f : CATransform3DMakeScale(0, 0, 1)
    }
}
