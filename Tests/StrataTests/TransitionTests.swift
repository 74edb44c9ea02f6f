// CATransition through the engine: the "before" image captured in the transaction that adds the
// transition (whether the changes come before or after the add), progress with start/endProgress,
// the key forced to kCATransition, the seeds' push on a colour change from `actions`, the default
// fade of `contents`, sublayer changes, removal at the end; and end-to-end reference sheets
// (fade, moveIn, push, reveal × four subtypes at 25/50/75 %) rendered from scenes, checked
// against the same frames rendered from hand-made transition snapshots.
import XCTest
import Strata
import StrataTestSupport

private func rgb(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat) -> CGColor { CGColor(red: r, green: g, blue: b, alpha: 1) }
private let red = rgb(0.9, 0.25, 0.25), blue = rgb(0.2, 0.4, 0.9), yellow = rgb(1, 0.9, 0.2)

final class TransitionTests: XCTestCase {
    /// A 60×40 cell with a 10×24 bar, red with a white bar at the left ("before" look).
    private func cell(_ frame: CGRect) -> (CALayer, CALayer) {
        let c = CALayer()
        c.frame = frame
        c.backgroundColor = red
        c.masksToBounds = true
        let bar = CALayer()
        bar.frame = CGRect(x: 6, y: 8, width: 10, height: 24)
        bar.backgroundColor = .white
        c.addSublayer(bar)
        return (c, bar)
    }

    /// The "after" look: blue with a yellow bar at the right.
    private func change(_ c: CALayer, _ bar: CALayer) {
        c.backgroundColor = blue
        bar.backgroundColor = yellow
        bar.position = CGPoint(x: 49, y: 20)
    }

    private func scene(_ root: CALayer, _ w: CGFloat, _ h: CGFloat) -> Scene {
        root.frame = CGRect(x: 0, y: 0, width: w, height: h)
        root.backgroundColor = rgb(0.2, 0.2, 0.2)
        return Scene(rootLayer: root, size: CGSize(width: w, height: h), frameRate: 10, duration: 5)
    }

    private func transition(_ type: CATransitionType, _ subtype: CATransitionSubtype? = nil, duration: Double = 1) -> CATransition {
        let t = CATransition()
        t.type = type
        t.subtype = subtype
        t.duration = duration
        return t
    }

    // MARK: Core behaviour

    func testBeforeImageWhenTheTransitionIsAddedFirst() throws {
        let root = CALayer()
        let (c, bar) = cell(CGRect(x: 0, y: 0, width: 60, height: 40))
        root.addSublayer(c)
        let s = scene(root, 60, 40)
        s.at(1) {
            c.add(self.transition(.fade), forKey: "anything")   // the seeds' order: add, then change
            CATransaction.setDisableActions(true)
            self.change(c, bar)
        }
        let snap = try s.snapshot(at: 1.25).sublayers[0]
        let tr = try XCTUnwrap(snap.transition)
        XCTAssertEqual(tr.type, "fade")
        XCTAssertNil(tr.subtype)
        XCTAssertEqual(tr.progress, 0.25, accuracy: 1e-12)
        XCTAssertEqual(tr.before.value.backgroundColor, RGBA(red))
        XCTAssertEqual(tr.before.value.sublayers[0].position, CGPoint(x: 11, y: 20))
        XCTAssertEqual(snap.backgroundColor, RGBA(blue))
        XCTAssertEqual(c.animationKeys(), [kCATransition])     // always under kCATransition
    }

    func testChangesMadeBeforeTheTransitionAreUndoneInTheBeforeImage() throws {
        let root = CALayer()
        let (c, bar) = cell(CGRect(x: 0, y: 0, width: 60, height: 40))
        root.addSublayer(c)
        let s = scene(root, 60, 40)
        s.at(1) {
            self.change(c, bar)                       // implicit animations run too…
            c.add(self.transition(.push, .fromRight), forKey: nil)
        }
        let tr = try XCTUnwrap(try s.snapshot(at: 1.5).sublayers[0].transition)
        XCTAssertEqual(tr.before.value.backgroundColor, RGBA(red))                    // …but not in the before image
        XCTAssertEqual(tr.before.value.sublayers[0].backgroundColor, RGBA(.white))
        XCTAssertEqual(tr.before.value.sublayers[0].position, CGPoint(x: 11, y: 20))
        XCTAssertEqual(tr.subtype, "fromRight")
        XCTAssertEqual(tr.progress, 0.5, accuracy: 1e-12)
    }

    func testSeedsPushTransitionOnColourChange() throws {
        // self.testLayer.actions = @{@"backgroundColor": transition} with a push from the left.
        let root = CALayer()
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        layer.backgroundColor = red
        root.addSublayer(layer)
        let push = CATransition()
        push.type = kCATransitionPush
        push.subtype = kCATransitionFromLeft
        layer.actions = ["backgroundColor": push]
        let s = scene(root, 60, 40)
        s.at(1) { layer.backgroundColor = blue }
        for p in [0.25, 0.5, 0.75] {
            let snap = try s.snapshot(at: 1 + 0.25 * p).sublayers[0]   // default duration 0.25 s
            let tr = try XCTUnwrap(snap.transition)
            XCTAssertEqual(tr.type, "push")
            XCTAssertEqual(tr.subtype, "fromLeft")
            XCTAssertEqual(tr.progress, p, accuracy: 1e-9)
            XCTAssertEqual(tr.before.value.backgroundColor, RGBA(red))
            XCTAssertEqual(snap.backgroundColor, RGBA(blue))               // no colour animation
        }
        XCTAssertEqual(layer.animationKeys(), [kCATransition])
        XCTAssertNil(try s.snapshot(at: 1.25).sublayers[0].transition)      // over and removed
        XCTAssertNil(layer.animationKeys())
    }

    func testSettingContentsFadesByDefault() throws {
        let root = CALayer()
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 4, height: 4)
        let first = CGImage(bitmap: Bitmap.filled(width: 2, height: 2, red: 255, green: 0, blue: 0))
        let second = CGImage(bitmap: Bitmap.filled(width: 2, height: 2, red: 0, green: 0, blue: 255))
        layer.contents = first
        root.addSublayer(layer)
        let s = scene(root, 4, 4)
        s.at(1) {
            CATransaction.setAnimationDuration(2)
            layer.contents = second
        }
        let tr = try XCTUnwrap(try s.snapshot(at: 2).sublayers[0].transition)
        XCTAssertEqual(tr.type, "fade")
        XCTAssertEqual(tr.progress, CAMediaTimingFunction(name: .default).evaluate(0.5), accuracy: 1e-12)
        XCTAssertTrue(tr.before.value.contents?.image === first)
        XCTAssertTrue(try s.snapshot(at: 2).sublayers[0].contents?.image === second)
    }

    func testSublayersAddedAndRemovedInTheTransaction() throws {
        let root = CALayer()
        let (c, bar) = cell(CGRect(x: 0, y: 0, width: 60, height: 40))
        root.addSublayer(c)
        let extra = CALayer()
        extra.frame = CGRect(x: 30, y: 5, width: 5, height: 5)
        let s = scene(root, 60, 40)
        s.at(1) {
            bar.removeFromSuperlayer()
            c.addSublayer(extra)
            c.add(self.transition(.reveal, .fromTop), forKey: nil)
        }
        let snap = try s.snapshot(at: 1.5).sublayers[0]
        let tr = try XCTUnwrap(snap.transition)
        XCTAssertEqual(tr.before.value.sublayers.map(\.position), [CGPoint(x: 11, y: 20)])   // the bar, not the extra
        XCTAssertEqual(snap.sublayers.map(\.position), [CGPoint(x: 32.5, y: 7.5)])
    }

    func testStartAndEndProgressAndTiming() throws {
        let root = CALayer()
        let (c, _) = cell(CGRect(x: 0, y: 0, width: 60, height: 40))
        root.addSublayer(c)
        let s = scene(root, 60, 40)
        s.at(1) {
            let t = self.transition(.moveIn, .fromBottom, duration: 2)
            t.startProgress = 0.2
            t.endProgress = 0.6
            t.timingFunction = CAMediaTimingFunction(name: .easeIn)
            c.add(t, forKey: nil)
        }
        let tr = try XCTUnwrap(try s.snapshot(at: 2).sublayers[0].transition)
        XCTAssertEqual(tr.progress, 0.2 + 0.4 * CAMediaTimingFunction(name: .easeIn).evaluate(0.5), accuracy: 1e-7)  // Float start/end
        XCTAssertNil(try s.snapshot(at: 3).sublayers[0].transition)
    }

    // MARK: Reference frames

    private let subtypes: [CATransitionSubtype] = [.fromLeft, .fromRight, .fromTop, .fromBottom]
    private let progresses = [0.25, 0.5, 0.75]

    /// A sheet (rows: subtypes, columns: 25/50/75 %) rendered from a scene: every cell gets its
    /// transition at t = 1 and the sheet is drawn at t = 1.5, each column's transition begun so
    /// that it is at its progress then. Rows fromLeft/fromTop add the transition before the
    /// changes, fromRight/fromBottom after them.
    private func sceneSheet(_ type: CATransitionType) throws -> Bitmap {
        let root = CALayer()
        var cells: [(CALayer, CALayer)] = []
        for r in 0..<4 { for c in 0..<3 {
            let pair = cell(CGRect(x: 10 + c * 70, y: 10 + r * 50, width: 60, height: 40))
            root.addSublayer(pair.0)
            cells.append(pair)
        } }
        let s = scene(root, 220, 210)
        s.at(1) {
            CATransaction.setDisableActions(true)
            for (i, (layer, bar)) in cells.enumerated() {
                let (r, c) = (i / 3, i % 3)
                let t = self.transition(type, self.subtypes[r])
                t.beginTime = 1.5 - self.progresses[c]
                if r % 2 == 0 { layer.add(t, forKey: nil); self.change(layer, bar) }
                else { self.change(layer, bar); layer.add(t, forKey: nil) }
            }
        }
        return try s.renderFrame(at: 1.5)
    }

    /// The same sheet from snapshots assembled by hand (the renderer's contract).
    private func handSheet(_ type: CATransitionType) -> Bitmap {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 220, height: 210)
        root.backgroundColor = rgb(0.2, 0.2, 0.2)
        for r in 0..<4 { for c in 0..<3 {
            let (layer, bar) = cell(CGRect(x: 10 + c * 70, y: 10 + r * 50, width: 60, height: 40))
            change(layer, bar)
            root.addSublayer(layer)
        } }
        var snap = PresentationBuilder(time: 0).snapshotTree(of: root)
        for r in 0..<4 { for c in 0..<3 {
            let before = cell(CGRect(x: 10 + c * 70, y: 10 + r * 50, width: 60, height: 40)).0.makeSnapshot()
            snap.sublayers[r * 3 + c].transition = TransitionSnapshot(before: before, type: type.rawValue,
                                                                      subtype: subtypes[r].rawValue, progress: progresses[c])
        } }
        return FrameRenderer(width: 220, height: 210).render(snap)
    }

    func testReferenceSheets() throws {
        for type in [CATransitionType.fade, .moveIn, .push, .reveal] {
            let fromScene = try sceneSheet(type)
            XCTAssertTrue(fromScene == handSheet(type), "\(type.rawValue): the scene's frame differs from the hand-made snapshot's")
            assertReferenceImage(fromScene, named: "transition_\(type.rawValue)")
        }
    }
}
