// A layer's background or gradient and its border are drawn in one pass of the kernels
// (SpanKernel.drawBordered): it must give the bytes of drawing the two items one after the other,
// for every kind of fill, map, clip and edge, and it must be taken where a layer has a border.
import XCTest
import StrataCore
import StrataTestSupport
@testable import StrataRender
import CStrataKernels

final class BorderedFillTests: XCTestCase {
    /// One bordered layer of each kind the fused pass admits, and two it must leave alone, over a
    /// gradient backdrop (so the pixels under them differ from column to column).
    static func cases() -> [(name: String, layer: CALayer, fused: Bool)] {
        func bordered(_ l: CALayer, _ frame: CGRect, angle: CGFloat, border: CGFloat, _ c: CGColor) -> CALayer {
            l.bounds = CGRect(x: 0, y: 0, width: frame.width, height: frame.height)
            l.position = CGPoint(x: frame.midX, y: frame.midY)
            l.transform = CATransform3DMakeRotation(angle, 0, 0, 1)
            l.borderWidth = border
            l.borderColor = c
            return l
        }
        func gradient(_ kind: CAGradientLayerType, _ colors: [CGColor], radius: CGFloat, masks: Bool) -> CAGradientLayer {
            let g = CAGradientLayer()
            g.type = kind
            g.colors = colors
            g.startPoint = kind == .radial ? CGPoint(x: 0.5, y: 0.5) : CGPoint(x: 0, y: 0)
            g.endPoint = CGPoint(x: 1, y: 1)
            g.cornerRadius = radius
            g.masksToBounds = masks
            return g
        }
        var out: [(String, CALayer, Bool)] = []
        // A translucent background with rounded corners, turned.
        let a = CALayer(); a.backgroundColor = color(0.9, 0.3, 0.2, 0.8); a.cornerRadius = 12
        out.append(("translucent background", bordered(a, CGRect(x: 20, y: 20, width: 110, height: 80), angle: 0.3, border: 2, color(0.1, 0.1, 0.5)), true))
        // An opaque background (its interior is stored), square corners, a translucent border.
        let b = CALayer(); b.backgroundColor = color(0.2, 0.7, 0.3)
        out.append(("opaque background", bordered(b, CGRect(x: 150, y: 15, width: 90, height: 60), angle: -0.7, border: 3, color(0, 0, 0, 0.6)), true))
        // Axial and radial gradients clipped to their rounded bounds (the motion scene's rectangles).
        let c = gradient(.axial, [color(1, 0.8, 0.1, 0.85), color(0.2, 0.3, 0.9, 0.85)], radius: 12, masks: true)
        out.append(("axial gradient", bordered(c, CGRect(x: 240, y: 30, width: 70, height: 110), angle: 1.1, border: 2, color(0.3, 0.1, 0.1)), true))
        let d = gradient(.radial, [color(0.9, 0.9, 0.2, 0.7), color(0.1, 0.6, 0.6, 0.9)], radius: 20, masks: true)
        d.transform = CATransform3DScale(CATransform3DMakeRotation(-0.4, 0, 0, 1), 1.3, 0.8, 1)
        out.append(("radial gradient, stretched", bordered(d, CGRect(x: 30, y: 120, width: 100, height: 70), angle: -0.4, border: 3, color(0.9, 0.9, 0.9, 0.5)), true))
        // An opaque gradient (its interior replaces the pixels).
        let e = gradient(.axial, [color(0.1, 0.2, 0.3), color(0.8, 0.7, 0.6)], radius: 8, masks: true)
        out.append(("opaque gradient", bordered(e, CGRect(x: 140, y: 100, width: 80, height: 50), angle: 0.15, border: 1.5, color(1, 1, 1)), true))
        // A border wider than half the layer: no hole at all.
        let f = CALayer(); f.backgroundColor = color(0.5, 0.5, 0.9, 0.9); f.cornerRadius = 6
        out.append(("border without hole", bordered(f, CGRect(x: 230, y: 160, width: 40, height: 20), angle: 0.5, border: 12, color(0.2, 0.9, 0.2, 0.7)), true))
        // Through a perspective: a map that is not affine.
        let g = CALayer(); g.backgroundColor = color(0.9, 0.6, 0.2, 0.9); g.cornerRadius = 10
        g.bounds = CGRect(x: 0, y: 0, width: 90, height: 60); g.position = CGPoint(x: 80, y: 200)
        var t = CATransform3DIdentity; t.m34 = -1 / 250
        g.transform = CATransform3DRotate(t, 0.7, 0.3, 1, 0.2)
        g.borderWidth = 3; g.borderColor = color(0.1, 0.1, 0.1, 0.8)
        out.append(("perspective", g, true))
        // Inside a turned parent with rounded masksToBounds: the same clip on both items.
        let parent = CALayer(); parent.bounds = CGRect(x: 0, y: 0, width: 120, height: 90); parent.position = CGPoint(x: 250, y: 230)
        parent.transform = CATransform3DMakeRotation(-0.25, 0, 0, 1); parent.cornerRadius = 25; parent.masksToBounds = true
        let h = CALayer(); h.backgroundColor = color(0.3, 0.3, 0.8, 0.75); h.cornerRadius = 9
        parent.addSublayer(bordered(h, CGRect(x: -10, y: 20, width: 100, height: 60), angle: 0.35, border: 2.5, color(0.9, 0.2, 0.5)))
        out.append(("clipped by a parent", parent, true))
        // Without edge antialiasing, and with only two corners rounded.
        let i = CALayer(); i.backgroundColor = color(0.6, 0.2, 0.7, 0.85); i.cornerRadius = 15
        i.allowsEdgeAntialiasing = false; i.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        out.append(("aliased, two corners", bordered(i, CGRect(x: 120, y: 170, width: 90, height: 55), angle: -0.9, border: 2, color(0, 0.3, 0.3)), true))
        // A gradient not clipped to its rounded bounds: its shape is not the border's outer edge.
        let j = gradient(.axial, [color(0.2, 0.8, 0.4, 0.8), color(0.9, 0.1, 0.4, 0.8)], radius: 14, masks: false)
        out.append(("gradient not clipped", bordered(j, CGRect(x: 10, y: 60, width: 80, height: 50), angle: 0.6, border: 2, color(0, 0, 0)), false))
        // A sublayer between the background and the border.
        let k = CALayer(); k.backgroundColor = color(0.95, 0.9, 0.3, 0.9); k.cornerRadius = 5
        k.addSublayer(box(CGRect(x: 10, y: 10, width: 30, height: 20), color(0.2, 0.2, 0.9)))
        out.append(("sublayer between", bordered(k, CGRect(x: 200, y: 60, width: 70, height: 45), angle: 0.2, border: 2, color(0.5, 0, 0)), false))
        return out.map { (name: $0.0, layer: $0.1, fused: $0.2) }
    }

    static func scene() -> CALayer {
        let root = canvas(320, 260, color(0.95, 0.96, 0.9))
        let backdrop = CAGradientLayer()
        backdrop.frame = root.bounds
        backdrop.colors = [color(0.2, 0.4, 0.9), color(0.95, 0.85, 0.3)]
        backdrop.startPoint = CGPoint(x: 0, y: 0); backdrop.endPoint = CGPoint(x: 1, y: 0.3)
        root.addSublayer(backdrop)
        for c in cases() { root.addSublayer(c.layer) }
        // In a group (opacity with sublayers): drawn from a nested list, whose items have no
        // row spans computed for the frame (the kernels find each row's themselves).
        let group = CALayer(); group.frame = CGRect(x: 100, y: 180, width: 120, height: 70); group.opacity = 0.6
        let member = CALayer(); member.backgroundColor = color(0.2, 0.5, 0.9, 0.9); member.cornerRadius = 11
        member.frame = CGRect(x: 10, y: 8, width: 90, height: 50); member.transform = CATransform3DMakeRotation(0.45, 0, 0, 1)
        member.borderWidth = 2.5; member.borderColor = color(0.95, 0.6, 0.1)
        group.addSublayer(member)
        group.addSublayer(box(CGRect(x: 80, y: 40, width: 30, height: 20), color(0.1, 0.8, 0.3, 0.8)))
        root.addSublayer(group)
        return root
    }

    /// The fused pass against the two items drawn one after the other without interior runs and
    /// with the kernels' general code (every pixel's coverage computed): the same bytes fused or
    /// not, with and without runs (the fill then reads its border's, see
    /// SpanKernel.sharesRowSpans), with 1 and 2 workers, tiles of 64, 16 and 100 pixels, every
    /// instantiation of the kernels the CPU runs, with and without their specialised code.
    func testFusedFillAndBorderGiveTheBytesOfTwoPasses() {
        let snap = PresentationBuilder(time: 0).snapshotTree(of: Self.scene())
        var plain = RenderOptions(workers: 1, tileSize: 64).verifyingTiles
        plain.fusesBorders = false
        plain.usesInteriorRuns = false
        plain.usesSpecialisedKernels = false
        let reference = FrameRenderer(width: 320, height: 260, options: plain).render(snap)
        for runs in [true, false] {
            for fuses in [true, false] {
                var configurations: [(workers: Int, tile: Int, kernels: strata_lanes, specialised: Bool)] = []
                for l in kernelInstantiations() { configurations += [(1, 64, l, true), (2, 16, l, true)] }
                configurations += [(2, 100, strata_best_lanes(), true), (1, 64, strata_best_lanes(), false)]
                for (workers, tile, kernels, specialised) in configurations {
                    var options = RenderOptions(workers: workers, tileSize: tile).verifyingTiles
                    options.kernels = kernels
                    options.usesInteriorRuns = runs
                    options.fusesBorders = fuses
                    options.usesSpecialisedKernels = specialised
                    let frame = FrameRenderer(width: 320, height: 260, options: options).render(snap)
                    let differing = zip(frame.pixels, reference.pixels).filter { $0 != $1 }.count
                    XCTAssertEqual(differing, 0, "runs \(runs), fused \(fuses), \(workers) workers, tiles of \(tile), "
                                   + "kernels \(kernels.rawValue), specialised \(specialised)")
                }
            }
        }
    }

    /// The display list pairs every admitted case's fill with its border (and no other items),
    /// and the pair shares its row spans.
    func testFusedWhereALayerHasItsBorderOverItsFill() {
        for c in Self.cases() {
            let root = canvas(320, 260)
            root.addSublayer(c.layer)
            let list = FrameRenderer(width: 320, height: 260).displayList(for: PresentationBuilder(time: 0).snapshotTree(of: root))
            let items = list.items
            let pairs = items.indices.dropLast().filter { SpanKernel.isBorder(items[$0 + 1], of: items[$0]) }.count
            XCTAssertEqual(pairs, c.fused ? 1 : 0, c.name)
            let sharing = items.indices.dropLast().filter { SpanKernel.sharesRowSpans(items[$0 + 1], with: items[$0]) }.count
            XCTAssertEqual(sharing, c.fused ? 1 : 0, c.name)
        }
    }
}
