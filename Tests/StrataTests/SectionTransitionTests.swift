// Sections with transitions (issue #43 §2): the timing of a series (sections overlap by their
// transitions, as Remotion's TransitionSeries), every transition kind rendered in a reference
// strip at 160×90, frames at chosen times checked against values computed by hand, the CA kinds
// checked pixel for pixel against a real CATransition, the same series re-laid out at another
// size, templates, bad input, and any frame order.
import XCTest
import Strata
import StrataTestSupport

final class SectionTransitionTests: XCTestCase {
    static let red = Color(red: 0.8, green: 0.2, blue: 0.2), blue = Color(red: 0.2, green: 0.4, blue: 0.8)

    /// Two sections of 2 s each, the second replacing the first by `t` (1 s, linear unless
    /// given) from 1 s to 2 s: A is red with a white square on the left, B blue with a yellow
    /// square on the right. The scene lasts 3 s.
    static func scene(_ t: SectionTransition, size: CGSize = CGSize(width: 160, height: 90)) -> Scene {
        var t = t
        t.duration = 1
        if t.timing == nil { t.timing = .linear }
        let s = size.height * 0.4
        return Scene(size: size, frameRate: 10, duration: 3, background: .black) {
            Sections {
                Section(duration: 2) {
                    Layer().frame(width: s, height: s).background(.white).pin(.leading, inset: size.width * 0.1)
                }
                .background(red)
                Section(duration: 2) {
                    Layer().frame(width: s, height: s).background(.yellow).pin(.trailing, inset: size.width * 0.1)
                }
                .background(blue)
                .transition(t)
            }
        }
    }

    static let strip: [(String, SectionTransition)] = [
        ("fade", .fade()),
        ("moveIn-fromLeft", .moveIn(.fromLeft)), ("moveIn-fromRight", .moveIn(.fromRight)),
        ("moveIn-fromTop", .moveIn(.fromTop)), ("moveIn-fromBottom", .moveIn(.fromBottom)),
        ("push-fromLeft", .push(.fromLeft)), ("push-fromRight", .push(.fromRight)),
        ("push-fromTop", .push(.fromTop)), ("push-fromBottom", .push(.fromBottom)),
        ("reveal-fromLeft", .reveal(.fromLeft)), ("reveal-fromRight", .reveal(.fromRight)),
        ("reveal-fromTop", .reveal(.fromTop)), ("reveal-fromBottom", .reveal(.fromBottom)),
        ("wipe-fromLeft", .wipe(.fromLeft)), ("wipe-fromTop", .wipe(.fromTop)),
        ("radialWipe", .radialWipe()), ("radialWipe-corner", .radialWipe(from: .topLeading)),
        ("clockWipe", .clockWipe()), ("slide", .slide(.fromRight)), ("zoom", .zoom()), ("iris", .iris()),
        ("blurDissolve", .blurDissolve()),
        ("flip-fromRight", .flip(.fromRight)), ("flip-fromTop", .flip(.fromTop)),
        ("cube-fromRight", .cube(.fromRight)), ("cube-fromBottom", .cube(.fromBottom)),
    ]

    /// Frames at 25, 50 and 75 % of each transition, side by side, one row per kind.
    func testReferenceStrip() throws {
        let w = 160, h = 90, progresses = [0.25, 0.5, 0.75]
        var sheet = Bitmap(width: w * progresses.count, height: h * Self.strip.count)
        for (row, (_, t)) in Self.strip.enumerated() {
            let s = Self.scene(t)
            for (col, p) in progresses.enumerated() {
                let f = try s.renderFrame(at: 1 + p)
                for y in 0..<h { for x in 0..<w { sheet.setPixel(x: col * w + x, y: row * h + y, f.pixel(x: x, y: y)) } }
            }
        }
        assertReferenceImage(sheet, named: "section-transitions", tolerance: 2)
    }

    // MARK: Values computed by hand (160×90, linear timing, the transition from 1 s to 2 s)

    static let redBytes: [Int] = [204, 51, 51], blueBytes: [Int] = [51, 102, 204]
    static let yellowBytes: [Int] = [255, 255, 0], whiteBytes: [Int] = [255, 255, 255], blackBytes: [Int] = [0, 0, 0]

    func assertPixel(_ f: Bitmap, _ x: Int, _ y: Int, _ expected: [Int], tolerance: Int = 1, _ what: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        let p = f.pixel(x: x, y: y)
        let got = [Int(p.r), Int(p.g), Int(p.b)]
        XCTAssertTrue(zip(got, expected).allSatisfy { abs($0 - $1) <= tolerance },
                      "\(what): pixel (\(x), \(y)) is \(got), expected \(expected) ± \(tolerance)", file: file, line: line)
    }

    /// The mix of two colours, as the compositor's premultiplied 8-bit blend gives it.
    func mix(_ a: [Int], _ b: [Int], _ t: Double) -> [Int] { zip(a, b).map { Int((Double($0) * (1 - t) + Double($1) * t).rounded()) } }

    func testMovingKindsPutEdgesWhereTheProgressSays() throws {
        // Push from the right at 50 %: the incoming section's left edge is at the centre.
        var f = try Self.scene(.push(.fromRight)).renderFrame(at: 1.5)
        assertPixel(f, 79, 10, Self.redBytes, "push 50 %, left of the centre")
        assertPixel(f, 80, 10, Self.blueBytes, "push 50 %, right of the centre")
        // Push from the left at 25 %: B covers x < 40 and shows its right part (the yellow
        // square, at 108…144 in B, is at 108 − 120 … 144 − 120 = −12…24 on screen).
        f = try Self.scene(.push(.fromLeft)).renderFrame(at: 1.25)
        assertPixel(f, 20, 45, Self.yellowBytes, "push from the left 25 %, B's square")
        assertPixel(f, 39, 10, Self.blueBytes, "push from the left 25 %, B")
        // …and A has moved right by 40: its white square (16…52) is at 56…92.
        assertPixel(f, 60, 45, Self.whiteBytes, "push from the left 25 %, A's square moved")
        assertPixel(f, 52, 45, Self.redBytes, "push from the left 25 %, A left of its square")
        // Push from the top at 50 %: B's bottom edge at y = 45.
        f = try Self.scene(.push(.fromTop)).renderFrame(at: 1.5)
        assertPixel(f, 80, 44, Self.blueBytes, "push from the top 50 %, above")
        assertPixel(f, 80, 45, Self.redBytes, "push from the top 50 %, below")
        // Move in from the left at 25 %: B over x < 40, A where it was.
        f = try Self.scene(.moveIn(.fromLeft)).renderFrame(at: 1.25)
        assertPixel(f, 39, 10, Self.blueBytes, "moveIn 25 %, B")
        assertPixel(f, 40, 10, Self.redBytes, "moveIn 25 %, A")
        assertPixel(f, 45, 45, Self.whiteBytes, "moveIn 25 %, A's square unmoved")
        // Reveal from the right at 50 %: A moved left by 80, B still under the right half.
        f = try Self.scene(.reveal(.fromRight)).renderFrame(at: 1.5)
        assertPixel(f, 79, 10, Self.redBytes, "reveal 50 %, A")
        assertPixel(f, 80, 10, Self.blueBytes, "reveal 50 %, B")
        assertPixel(f, 120, 45, Self.yellowBytes, "reveal 50 %, B's square unmoved")
        // Slide from the right at 50 %: B's edge at the centre; A moved left by 80 / 3, so its
        // square (16…52) is at −10.7…25.3.
        f = try Self.scene(.slide(.fromRight)).renderFrame(at: 1.5)
        assertPixel(f, 80, 10, Self.blueBytes, "slide 50 %, B")
        assertPixel(f, 24, 45, Self.whiteBytes, "slide 50 %, A's square moved a third")
        assertPixel(f, 27, 45, Self.redBytes, "slide 50 %, A right of its square")
        // Wipe from the left at 25 %: B over x < 40, nothing moves.
        f = try Self.scene(.wipe(.fromLeft)).renderFrame(at: 1.25)
        assertPixel(f, 39, 10, Self.blueBytes, "wipe 25 %, B")
        assertPixel(f, 40, 10, Self.redBytes, "wipe 25 %, A")
        assertPixel(f, 30, 45, Self.blueBytes, "wipe 25 %, A's square covered left of the edge")
        assertPixel(f, 45, 45, Self.whiteBytes, "wipe 25 %, A's square right of the edge")
    }

    func testFadesMixByTheProgress() throws {
        // Fade at 25 % (linear): B's opacity 0.25 over A.
        var f = try Self.scene(.fade()).renderFrame(at: 1.25)
        assertPixel(f, 80, 10, mix(Self.redBytes, Self.blueBytes, 0.25), "fade 25 %")
        // A timing curve: easeIn at 50 % of the time is CAMediaTimingFunction(easeIn)(0.5).
        let eased = CAMediaTimingFunction(name: .easeIn).evaluate(0.5)
        f = try Self.scene(.fade(timing: .easeIn)).renderFrame(at: 1.5)
        assertPixel(f, 80, 10, mix(Self.redBytes, Self.blueBytes, eased), "fade 50 % of the time, easeIn (\(eased))")
        XCTAssertLessThan(eased, 0.45)
        // Blur-dissolve half-way: far from any edge the blur changes nothing, the mix is 50 %.
        f = try Self.scene(.blurDissolve()).renderFrame(at: 1.5)
        assertPixel(f, 80, 8, mix(Self.redBytes, Self.blueBytes, 0.5), tolerance: 2, "blur-dissolve 50 %")
        // …and near a square's edge the blur spreads it: 4 px outside A's white square is no
        // longer plain red-blue. (Half-way the sections are grown by 1 + 2.4 × 12 / 90, so the
        // square's right edge, 28 left of the centre, is at 80 − 28 × 1.32 = 43.)
        let sharp = mix(Self.redBytes, Self.blueBytes, 0.5)
        let edge = 80 - 28 * (1 + 2.4 * 12 / 90.0)
        let p = f.pixel(x: Int(edge) + 4, y: 45)
        XCTAssertGreaterThan(Int(p.g), sharp[1] + 10, "the blur spreads the white square")
        // Zoom at 50 %: A, on top, scaled 1.5 with opacity 0.5; B scaled 0.75 (x 20…140,
        // y 11.25…78.75).
        // At (2, 45) A shows its white square (local x = 80 + (2 − 80) / 1.5 = 28) over black.
        f = try Self.scene(.zoom()).renderFrame(at: 1.5)
        assertPixel(f, 2, 45, mix(Self.blackBytes, Self.whiteBytes, 0.5), "zoom 50 %, A over the background")
        assertPixel(f, 80, 45, mix(Self.blueBytes, Self.redBytes, 0.5), "zoom 50 %, A over B")
        assertPixel(f, 80, 10, mix(Self.blackBytes, Self.redBytes, 0.5), "zoom 50 %, A over the background above B")
    }

    func testMaskedKindsUncoverByTheProgress() throws {
        // Radial wipe from the centre at 50 %: a disc of radius 0.5 × (hypot(80, 45) + 1) = 46.4.
        var f = try Self.scene(.radialWipe()).renderFrame(at: 1.5)
        assertPixel(f, 80, 5, Self.blueBytes, "radial 50 %, 40 px from the centre")
        assertPixel(f, 130, 45, Self.redBytes, "radial 50 %, 50 px from the centre")
        // From the top-left corner: radius 0.5 × (hypot(160, 90) + 1) = 92.3.
        f = try Self.scene(.radialWipe(from: .topLeading)).renderFrame(at: 1.5)
        assertPixel(f, 60, 60, Self.blueBytes, "radial from the corner 50 %, 85 px from it")
        assertPixel(f, 80, 60, Self.redBytes, "radial from the corner 50 %, 100 px from it")
        // Clock wipe at 25 %: the quarter clockwise from 12 o'clock (top right) is uncovered.
        f = try Self.scene(.clockWipe()).renderFrame(at: 1.25)
        assertPixel(f, 120, 20, Self.blueBytes, "clock 25 %, at 58° from 12 o'clock")
        assertPixel(f, 120, 70, Self.redBytes, "clock 25 %, at 122°")
        assertPixel(f, 40, 20, Self.redBytes, "clock 25 %, at 302°")
        f = try Self.scene(.clockWipe()).renderFrame(at: 1.75)
        assertPixel(f, 40, 70, Self.blueBytes, "clock 75 %, at 238°")
        assertPixel(f, 40, 20, Self.redBytes, "clock 75 %, at 302°")
        // Iris at 50 %: A shows through a hole of radius 0.5 × 92.8 = 46.4 about the centre.
        f = try Self.scene(.iris()).renderFrame(at: 1.5)
        assertPixel(f, 80, 5, Self.redBytes, "iris 50 %, 40 px from the centre")
        assertPixel(f, 10, 5, Self.blueBytes, "iris 50 %, 81 px from the centre")
    }

    func testThreeDimensionalKinds() throws {
        // Flip half-way: both sections are edge-on, only the background shows.
        var f = try Self.scene(.flip(.fromRight)).renderFrame(at: 1.5)
        assertPixel(f, 20, 45, Self.blackBytes, "flip 50 %")
        assertPixel(f, 140, 45, Self.blackBytes, "flip 50 %")
        // A quarter of the way: A turned by 45° about its centre: the centre column is still A,
        // the sides are narrower than the canvas (perspective 2 × 160).
        f = try Self.scene(.flip(.fromRight)).renderFrame(at: 1.25)
        assertPixel(f, 80, 10, Self.redBytes, "flip 25 %, centre")
        assertPixel(f, 2, 45, Self.blackBytes, "flip 25 %, beyond the turned edge")
        // Cube half-way: both faces at 45°, their shared edge at the centre: A left, B right.
        f = try Self.scene(.cube(.fromRight)).renderFrame(at: 1.5)
        assertPixel(f, 76, 45, Self.redBytes, "cube 50 %, left of the edge")
        assertPixel(f, 84, 45, Self.blueBytes, "cube 50 %, right of the edge")
        // At rest (before and after) nothing is turned: exactly the flat sections.
        f = try Self.scene(.cube(.fromRight)).renderFrame(at: 2.5)
        XCTAssertTrue(f == (try Self.scene(.fade()).renderFrame(at: 2.5)), "after a cube, B is flat")
    }

    // MARK: Timing of a series

    func testSectionsOverlapByTheirTransitions() throws {
        // 2 + 3 + 2 s with transitions of 0.5 and 1 s: starts at 0, 1.5 and 3.5; 5.5 s in all.
        let scene = Scene(size: CGSize(width: 40, height: 20), frameRate: 10, duration: 6) {
            Sections {
                Section(duration: 2) {}.background(.red).id("a")
                Section(duration: 3) {}.background(.green).id("b").transition(.fade(duration: 0.5))
                Section(duration: 2) {
                    // Times inside a section count from its start (3.5 s).
                    Layer().frame(width: 10, height: 10).background(.white).id("dot").fadeIn(duration: 1, delay: 0.5, timing: .linear)
                }
                .background(.blue).id("c").transition(.push(.fromRight, duration: 1))
            }
        }
        func shown(_ t: Double) throws -> [String] {
            let root = try scene.snapshot(at: t).sublayers[0]
            return zip(["a", "b", "c"], root.sublayers).filter { !$0.1.isHidden }.map(\.0)
        }
        XCTAssertEqual(try shown(0), ["a"])
        XCTAssertEqual(try shown(1.49), ["a"])
        XCTAssertEqual(try shown(1.5), ["a", "b"])
        XCTAssertEqual(try shown(1.99), ["a", "b"])
        XCTAssertEqual(try shown(2), ["b"])
        XCTAssertEqual(try shown(3.5), ["b", "c"])
        XCTAssertEqual(try shown(4.5), ["c"])
        XCTAssertEqual(try shown(5.49), ["c"])
        XCTAssertEqual(try shown(5.5), [], "the series lasts 2 + 3 + 2 − 0.5 − 1 = 5.5 s")
        // The dot fades in from 3.5 + 0.5 = 4 s to 5 s.
        let dot = { (t: Double) throws -> Float in try scene.snapshot(at: t).sublayers[0].sublayers[2].sublayers[0].opacity }
        XCTAssertEqual(try dot(3.9), 0, accuracy: 1e-6)
        XCTAssertEqual(try dot(4.5), 0.5, accuracy: 1e-6)
        XCTAssertEqual(try dot(5.2), 1, accuracy: 1e-6)
    }

    /// A series inside a section starts with that section: its times add up.
    func testASeriesInsideASectionStartsWithIt() throws {
        let scene = Scene(size: CGSize(width: 40, height: 20), frameRate: 10, duration: 4) {
            Sections {
                Section(duration: 2) {}.background(.red)
                Section(duration: 3) {
                    Sections {
                        Section(duration: 1) {}.background(.white).id("i1")
                        Section(duration: 1) {}.background(.yellow).id("i2").transition(.push(.fromRight, duration: 0.5, timing: .linear))
                    }
                }
                .transition(.fade(duration: 1))
            }
        }
        // The outer second section starts at 1 s; the inner push runs from 1.5 s to 2 s.
        func visible(_ id: String, _ t: Double) throws -> Bool {
            let inner = try scene.snapshot(at: t).sublayers[0].sublayers[1].sublayers[0]
            return !inner.sublayers[id == "i1" ? 0 : 1].isHidden
        }
        XCTAssertTrue(try visible("i1", 1.2))
        XCTAssertFalse(try visible("i2", 1.2))
        XCTAssertTrue(try visible("i1", 1.75))
        XCTAssertTrue(try visible("i2", 1.75))
        XCTAssertFalse(try visible("i1", 2.0))
        let i2 = try scene.snapshot(at: 1.75).sublayers[0].sublayers[1].sublayers[0].sublayers[1]
        XCTAssertEqual(Double(i2.position.x), 20 + 40 * 0.5, accuracy: 1e-9, "half-way through the inner push")
    }

    // MARK: The same as Core Animation's CATransition

    /// The CA kinds of a series and a real CATransition on a layer whose content changes at 1 s
    /// give the same frames (the sections here hold still, as a CATransition's "before" image).
    func testCoreAnimationKindsMatchCATransition() throws {
        for kind in [SectionTransition.Kind.fade, .moveIn, .push, .reveal] {
            for direction in SectionTransition.Direction.allCases {
                if kind == .fade, direction != .fromRight { continue }
                let dsl = Self.scene(SectionTransition(kind, direction: direction))
                let ca = Self.caScene(CATransitionType(rawValue: kind.rawValue), CATransitionSubtype(rawValue: direction.rawValue))
                for t in [1.25, 1.5, 1.75] {
                    let a = try dsl.renderFrame(at: t), b = try ca.renderFrame(at: t)
                    let cmp = try XCTUnwrap(ImageComparison(actual: a, expected: b, tolerance: 2))
                    XCTAssertEqual(cmp.pixelsOverTolerance, 0, "\(kind.rawValue) \(direction.rawValue) at \(t) s: \(cmp.pixelsOverTolerance) pixels differ (max \(cmp.maxChannelDifference))")
                }
            }
        }
    }

    /// The same picture built with Core Animation: one layer showing A, changed to B at 1 s by
    /// a CATransition of `type` and `subtype` lasting 1 s, linear.
    static func caScene(_ type: CATransitionType, _ subtype: CATransitionSubtype) -> Scene {
        func cg(_ c: Color) -> CGColor { c.cgColor }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 90)
        root.backgroundColor = cg(.black)
        let box = CALayer()
        box.frame = root.bounds
        box.masksToBounds = true
        box.backgroundColor = cg(red)
        let square = CALayer()
        square.frame = CGRect(x: 16, y: 27, width: 36, height: 36)
        square.backgroundColor = cg(.white)
        box.addSublayer(square)
        root.addSublayer(box)
        let scene = Scene(rootLayer: root, size: root.bounds.size, frameRate: 10, duration: 3)
        scene.at(1) {
            CATransaction.setDisableActions(true)
            let t = CATransition()
            t.type = type
            t.subtype = subtype
            t.duration = 1
            t.timingFunction = CAMediaTimingFunction(name: .linear)
            box.add(t, forKey: nil)
            box.backgroundColor = cg(blue)
            square.backgroundColor = cg(.yellow)
            square.frame = CGRect(x: 108, y: 27, width: 36, height: 36)
        }
        return scene
    }

    // MARK: Another size, templates, bad input, any order

    /// Laid out again at twice the size (what `--size 320x180` does): the push's edge is at the
    /// new centre half-way, and the frame is the small one scaled (the sections follow the canvas).
    func testARelayoutAtAnotherSizeKeepsTheTransition() throws {
        var composition = try XCTUnwrap(Self.scene(.push(.fromRight)).composition)
        composition.size = [320, 180]
        let big = try Scene(composition: composition)
        let f = try big.renderFrame(at: 1.5)
        XCTAssertEqual(f.width, 320)
        assertPixel(f, 159, 10, Self.redBytes, "push 50 % at 320×180, left of the centre")
        assertPixel(f, 160, 10, Self.blueBytes, "push 50 % at 320×180, right of the centre")
        composition.size = [90, 160]
        let tall = try Scene(composition: composition).renderFrame(at: 1.5)
        assertPixel(tall, 44, 5, Self.redBytes, "push 50 % at 90×160")
        assertPixel(tall, 45, 5, Self.blueBytes, "push 50 % at 90×160")
        var wipe = try XCTUnwrap(Self.scene(.radialWipe()).composition)
        wipe.size = [320, 180]
        // The radius follows the canvas: 0.5 × (hypot(160, 90) + 1) = 92.3 half-way.
        let w = try Scene(composition: wipe).renderFrame(at: 1.5)
        assertPixel(w, 160, 90 - 88, Self.blueBytes, "radial 50 % at 320×180, 88 px from the centre")
        assertPixel(w, 160 + 96, 90, Self.redBytes, "radial 50 % at 320×180, 96 px from the centre")
    }

    static let templateText = """
    size: [160, 90]
    fps: 10
    duration: 3
    background: "#000000"
    layers:
      - type: sections
        children:
          - type: section
            duration: 2
            backgroundColor: "#CC3333"
            children:
              - {type: layer, size: [36, 36], backgroundColor: white, layout: {pin: leading, inset: 16}}
          - type: section
            duration: 2
            backgroundColor: "#3366CC"
            transition: {type: push, direction: fromRight, duration: 1, timing: linear}
            children:
              - {type: layer, size: [36, 36], backgroundColor: yellow, layout: {pin: trailing, inset: 16}}
    """

    func template(_ text: String) throws -> Template {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sections-\(UUID().uuidString).yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return try Template(contentsOf: url)
    }

    /// The same series written as a template renders the DSL's frames exactly.
    func testTemplateSectionsRenderAsTheDSL() throws {
        let scene = try template(Self.templateText).makeScene()
        let dsl = Self.scene(.push(.fromRight))
        for t in [0.5, 1.25, 1.5, 2.5] {
            XCTAssertTrue(try scene.renderFrame(at: t) == dsl.renderFrame(at: t), "t = \(t)")
        }
        // The DSL's composition encodes and decodes to a scene with the same frames.
        let data = try XCTUnwrap(dsl.composition).jsonData()
        let decoded = try Scene(composition: JSONDecoder().decode(Composition.self, from: data))
        XCTAssertTrue(try decoded.renderFrame(at: 1.25) == dsl.renderFrame(at: 1.25))
    }

    func testBadTransitionsAreNamedWithTheirPath() throws {
        func problem(_ replace: String, with new: String) -> String {
            do {
                _ = try template(Self.templateText.replacingOccurrences(of: replace, with: new)).makeScene()
                return "no error"
            } catch { return "\(error)" }
        }
        var m = problem("type: push", with: "type: pusj")
        XCTAssertTrue(m.contains("layers[0].children[1].transition") && m.contains("push"), m)
        m = problem("direction: fromRight", with: "direction: right")
        XCTAssertTrue(m.contains("layers[0].children[1].transition") && m.contains("fromLeft"), m)
        m = problem("duration: 1, timing", with: "duration: 3, timing")
        XCTAssertTrue(m.contains("layers[0].children[1].transition.duration") && m.contains("at most 2 s"), m)
        m = problem("timing: linear}", with: "timing: spring}")
        XCTAssertTrue(m.contains("not a spring"), m)
        m = problem("        duration: 2\n        backgroundColor: \"#CC3333\"", with: "        backgroundColor: \"#CC3333\"")
        XCTAssertTrue(m.contains("layers[0].children[0].duration") && m.contains("needs a duration"), m)
        m = problem("  - type: sections\n    children:\n      - type: section", with: "  - type: sections\n    children:\n      - type: group")
        XCTAssertTrue(m.contains("layers[0].children[0].type") && m.contains("section layers"), m)
        // A transition into the first section has nothing to replace.
        let dsl = Scene(size: CGSize(width: 40, height: 20), duration: 1) {
            Sections { Section(duration: 1) {}.transition(.fade()) }
        }
        XCTAssertThrowsError(try dsl.renderFrame(at: 0)) { XCTAssertTrue("\($0)".contains("the first section has no section before it"), "\($0)") }
    }

    /// Frames rendered in any order and with any number of workers are the same bytes.
    func testAnyOrderAndWorkerCount() throws {
        let times = [2.5, 1.25, 0.5, 1.75, 1.5]
        var first: [Double: Bitmap] = [:]
        let scene = Self.scene(.cube(.fromBottom))
        for t in times { first[t] = try scene.renderFrame(at: t, options: RenderOptions(workers: 1)) }
        let again = Self.scene(.cube(.fromBottom))
        for t in times.reversed() {
            XCTAssertTrue(try again.renderFrame(at: t, options: RenderOptions(workers: 4)) == first[t], "t = \(t)")
        }
        let blur = Self.scene(.blurDissolve()), blur2 = Self.scene(.blurDissolve())
        let late = try blur.renderFrame(at: 1.75)
        _ = try blur.renderFrame(at: 1.25)
        XCTAssertTrue(try blur2.renderFrame(at: 1.25) == blur.renderFrame(at: 1.25))
        XCTAssertTrue(try blur2.renderFrame(at: 1.75) == late)
        // Back after the blur: the sections are no longer rasterized.
        XCTAssertTrue(try blur.renderFrame(at: 2.5) == Self.scene(.fade()).renderFrame(at: 2.5))
    }

    // MARK: The documentation's examples

    /// The DocC article's series: the push into the second section runs from 2.4 s for 0.6 s
    /// (easeInEaseOut is symmetric: half-way at 2.7 s), so its left edge is at the centre.
    func testTheArticlesSeries() throws {
        let scene = Scene(size: .hd720, duration: 7.4, background: .hex("#101820")) {
            Sections {
                Section(duration: 3) {
                    Text("Chapter one").font("DejaVu Sans Bold", size: 72).foreground(.white).center()
                }
                Section(duration: 3) {
                    Text("Chapter two").font("DejaVu Sans Bold", size: 72).foreground(.white).center()
                        .fadeIn(duration: 0.5, delay: 0.6)
                }
                .background(.hex("#1F6FEB"))
                .transition(.push(.fromRight, duration: 0.6, timing: .easeInOut))
                Section(duration: 2) { Text("The end").fontSize(64).foreground(.white).center() }
                    .transition(.cube(.fromBottom, duration: 0.8))
            }
        }
        let f = try scene.renderFrame(at: 2.7)
        assertPixel(f, 639, 5, [0x10, 0x18, 0x20], "the first section, left of the centre")
        assertPixel(f, 640, 5, [0x1F, 0x6F, 0xEB], "the second section, right of the centre")
    }

    /// The Layout article's page at 1080×1920: the panel spans the safe area's width
    /// (64.8 … 950.4).
    func testTheLayoutArticlesPage() throws {
        let scene = Scene(size: .hd720, duration: 4, background: .hex("#0B1021")) {
            VStack(alignment: .leading, spacing: 0) {
                HStack(spacing: 0) {
                    Text("STRATA").font("DejaVu Sans Bold", size: 40).foreground(.white)
                    Spacer()
                    Layer().frame(width: 40, height: 40).background(.orange).cornerRadius(20)
                }
                .frame(maxWidth: .infinity)
                Spacer()
                Layer().background(.hex("#1F6FEB")).cornerRadius(24).frame(width: .fill, height: .percent(40))
                Spacer()
                Layer().background(.hex("#FF5A36")).frame(width: .percent(50)).aspectRatio(4)
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity)
            .padding(.safeArea)
        }
        var composition = try XCTUnwrap(scene.composition)
        composition.size = [1080, 1920]
        let f = try Scene(composition: composition).renderFrame(at: 1)
        let blue = [0x1F, 0x6F, 0xEB]
        let row = try XCTUnwrap((0..<1920).first { y in
            let p = f.pixel(x: 540, y: y)
            return [Int(p.r), Int(p.g), Int(p.b)] == blue
        })
        let y = row + 100
        assertPixel(f, 66, y, blue, "the panel's left edge is at 64.8")
        assertPixel(f, 63, y, [0x0B, 0x10, 0x21], "left of the panel")
        assertPixel(f, 949, y, blue, "the panel's right edge is at 950.4")
        assertPixel(f, 952, y, [0x0B, 0x10, 0x21], "right of the panel")
    }

    /// A video in a section starts with the section, and a marker in a section's timeline is at
    /// the section's start plus its place (a scene-level `At` finds it in scene time).
    func testVideosAndMarkersInASectionCountFromItsStart() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sections-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // 30 frames at 30 fps; frame N has red 8 × N.
        let clip = dir.appendingPathComponent("count.mp4")
        let r = try runProcess("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                                          "color=black:s=64x48:r=30:d=1,format=rgb24,geq=r='8*N':g=64:b=128",
                                          "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "10", clip.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let scene = Scene(size: CGSize(width: 64, height: 48), frameRate: 30, duration: 3) {
            Sections {
                Section(duration: 1) {}.background(.black)
                Section(duration: 2) {
                    Video(clip.path, muted: true).frame(width: 64, height: 48)
                    Layer().frame(width: 8, height: 8).background(.white).id("dot")
                        .timeline { Wait(0.5); Marker("half") }
                }
            }
            Timeline { At("half") { Change("dot", .opacity, to: 0) } }
        }
        // The section starts at 1 s (a cut): at 1.5 s the clip is at its frame 15 (red 120),
        // not at 45 (past its end: its last frame, red 232).
        let f = try scene.renderFrame(at: 1.5)
        XCTAssertEqual(Int(f.pixel(x: 40, y: 30).r), 120, accuracy: 14, "the clip shows its frame 0.5 s after the section starts")
        // The marker is at 1 + 0.5 s in scene time.
        let dot = { (t: Double) throws -> Float in try scene.snapshot(at: t).sublayers[0].sublayers[1].sublayers[1].opacity }
        XCTAssertEqual(try dot(1.49), 1)
        XCTAssertEqual(try dot(1.5), 0)
    }

    /// End to end: `strata still --size 320x180` of the template half-way through the push.
    func testTheCommandLineRelaysOutATemplatesSections() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sections-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let doc = dir.appendingPathComponent("push.yaml"), out = dir.appendingPathComponent("half.png")
        try Self.templateText.write(to: doc, atomically: true, encoding: .utf8)
        let r = try runProcess(strataExecutable, ["still", doc.path, "--time", "1.5", "--size", "320x180", "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let f = try Bitmap(contentsOfPNG: out)
        XCTAssertEqual(f.width, 320)
        assertPixel(f, 159, 10, Self.redBytes, "strata still --size 320x180, left of the centre")
        assertPixel(f, 160, 10, Self.blueBytes, "strata still --size 320x180, right of the centre")
    }
}
