// The DSL compiles to ordinary Core Animation objects: each construct is checked by the CALayer
// and CAAnimation objects it produces (classes, properties, key paths, begin times, fill modes),
// timelines by their begin times, layout by exact frames, and the Codable model by a round trip
// that renders the same bytes. Errors name the JSON path of the value and what was expected.
import XCTest
import Strata

final class DSLTests: XCTestCase {
    /// The animations a layer holds, in the order added.
    private func animations(_ layer: CALayer?) -> [CAPropertyAnimation] {
        (layer?.animationKeys() ?? []).compactMap { layer?.animation(forKey: $0) as? CAPropertyAnimation }
    }

    func testElementsCompileToLayersWithTheirProperties() throws {
        let scene = Scene(size: CGSize(width: 400, height: 300), frameRate: 30, duration: 2, background: .hex("#102030")) {
            Shape(.roundedRect(CGRect(x: 0, y: 0, width: 100, height: 50), cornerRadius: 8))
                .fill(.hex("#FF5A36")).stroke(.white, width: 2, cap: .round).id("shape")
                .position(x: 100, y: 80)
            Text("Hello").font("DejaVu Sans Bold", size: 40).foreground(.white).id("text")
            Gradient([.red, .blue], from: .leading, to: .trailing, type: .axial).frame(width: 50, height: 20).id("gradient")
            Layer().frame(x: 10, y: 20, width: 30, height: 40).background(.black.opacity(0.5)).cornerRadius(6)
                .border(.white, width: 3).shadow(.black, radius: 4, offset: CGSize(width: 0, height: 2), opacity: 0.3)
                .clipped().id("box")
            TransformGroup { Layer().frame(width: 10, height: 10) }.id("context")
        }
        XCTAssertEqual(scene.rootLayer.backgroundColor, CGColor(red: 16.0 / 255, green: 32.0 / 255, blue: 48.0 / 255, alpha: 1))
        let shape = try XCTUnwrap(scene.layer(named: "shape") as? CAShapeLayer)
        XCTAssertEqual(shape.fillColor, CGColor(red: 1, green: 90.0 / 255, blue: 54.0 / 255, alpha: 1))
        XCTAssertEqual(shape.strokeColor, .white)
        XCTAssertEqual(shape.lineWidth, 2)
        XCTAssertEqual(shape.lineCap, .round)
        XCTAssertEqual(shape.path?.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(shape.position, CGPoint(x: 100, y: 80))
        XCTAssertEqual(shape.bounds.size, CGSize(width: 100, height: 50))
        let text = try XCTUnwrap(scene.layer(named: "text") as? CATextLayer)
        XCTAssertEqual(text.string as? String, "Hello")
        XCTAssertEqual(text.fontSize, 40)
        XCTAssertEqual(text.bounds.size, TextMetrics.size(of: "Hello", font: "DejaVu Sans Bold", fontSize: 40).applying(.identity).rounded)
        XCTAssertEqual(text.frame.origin, .zero)                             // no placement: top-left
        let gradient = try XCTUnwrap(scene.layer(named: "gradient") as? CAGradientLayer)
        XCTAssertEqual(gradient.colors?.count, 2)
        XCTAssertEqual(gradient.startPoint, CGPoint(x: 0, y: 0.5))
        let box = try XCTUnwrap(scene.layer(named: "box"))
        XCTAssertEqual(box.frame, CGRect(x: 10, y: 20, width: 30, height: 40))
        XCTAssertEqual(box.backgroundColor?.alpha, 0.5)
        XCTAssertEqual(box.cornerRadius, 6)
        XCTAssertEqual(box.borderWidth, 3)
        XCTAssertEqual(box.shadowRadius, 4)
        XCTAssertEqual(box.shadowOpacity, 0.3, accuracy: 1e-6)
        XCTAssertTrue(box.masksToBounds)
        XCTAssertTrue(scene.layer(named: "context") is CATransformLayer)
        // The DSL's layers are ordinary layers: imperative code can change them.
        box.opacity = 0.25
        XCTAssertEqual(try scene.presentation(of: box, at: 0)?.opacity, 0.25)
    }

    func testTypedAnimationsBecomeCoreAnimationAnimations() throws {
        let scene = Scene(size: CGSize(width: 400, height: 300), duration: 4) {
            Layer().frame(width: 50, height: 50).id("box")
                .animate(.opacity, from: 0, to: 1, duration: 0.5, timing: .easeOut, delay: 0.2)
                .animate(.position.x, by: 100, duration: 1, delay: 1)
                .animate(.rotation, to: .degrees(90), duration: 1, timing: .spring(duration: 0.5, bounce: 0.2), delay: 1)
                .keyframes(.backgroundColor, [.red, .green, .blue], keyTimes: [0, 0.3, 1], duration: 2)
                .repeat(.forever, autoreverses: true)
        }
        let box = try XCTUnwrap(scene.layer(named: "box"))
        let list = animations(box)
        XCTAssertEqual(list.map(\.keyPath), ["opacity", "position.x", "transform.rotation.z", "backgroundColor"])
        let fade = try XCTUnwrap(list[0] as? CABasicAnimation)
        XCTAssertEqual(fade.fromValue as? CGFloat, 0)
        XCTAssertEqual(fade.toValue as? CGFloat, 1)
        XCTAssertEqual(fade.beginTime, 0.2)
        XCTAssertEqual(fade.duration, 0.5)
        XCTAssertEqual(fade.timingFunction, CAMediaTimingFunction(name: .easeOut))
        XCTAssertEqual(fade.fillMode, .both)                                 // holds its start before it begins
        XCTAssertFalse(fade.isRemovedOnCompletion)
        let move = try XCTUnwrap(list[1] as? CABasicAnimation)             // by: from where it is
        XCTAssertEqual(move.fromValue as? CGFloat, 25)
        XCTAssertEqual(move.toValue as? CGFloat, 125)
        let spring = try XCTUnwrap(list[2] as? CASpringAnimation)
        XCTAssertEqual(spring.toValue as? CGFloat ?? 0, .pi / 2, accuracy: 1e-12)
        XCTAssertEqual(spring.duration, spring.settlingDuration)
        let keys = try XCTUnwrap(list[3] as? CAKeyframeAnimation)
        XCTAssertEqual(keys.values?.count, 3)
        XCTAssertEqual(keys.keyTimes, [0, 0.3, 1])
        XCTAssertEqual(keys.repeatCount, .infinity)
        XCTAssertTrue(keys.autoreverses)
        // Exact values at chosen times.
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: box, at: 0.1)).opacity, 0)    // before: held at 0
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: box, at: 1.5)).position.x, 75, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: box, at: 3)).position.x, 125, accuracy: 1e-9)  // held at the end
    }

    func testTimelinesCompileToBeginTimes() throws {
        let scene = Scene(size: CGSize(width: 200, height: 200), frameRate: 30, duration: 10) {
            Layer().frame(width: 10, height: 10).id("a")
            Layer().frame(width: 10, height: 10).id("b")
            Layer().frame(width: 10, height: 10).id("c")
            Timeline {
                Animate("a", .opacity, to: 0.5, duration: 1)              // 0 … 1
                Wait(0.5)                                                  // … 1.5
                Parallel {
                    Animate("a", .opacity, to: 1, duration: 2)            // 1.5 … 3.5
                    Animate("b", .opacity, to: 0, duration: .frames(15))  // 1.5 … 2
                }
                Marker("middle")                                           // 3.5
                Stagger(0.25) {
                    Animate("a", .cornerRadius, to: 5, duration: 1)       // 3.5
                    Animate("b", .cornerRadius, to: 5, duration: 1)       // 3.75
                    Animate("c", .cornerRadius, to: 5, duration: 1)       // 4.0 … 5.0
                }
                Loop(2) {
                    Animate("c", .zPosition, to: 1, duration: 0.5)        // 5.0, 5.5
                }
                At("middle") {
                    Animate("c", .opacity, to: 0.2, duration: 0.1)        // 3.5
                }
            }
        }
        func begins(_ id: String, _ key: String) -> [Double] {
            animations(scene.layer(named: id)).filter { $0.keyPath == key }.map(\.beginTime).sorted()
        }
        XCTAssertEqual(begins("a", "opacity"), [0, 1.5])
        XCTAssertEqual(begins("b", "opacity"), [1.5])
        XCTAssertEqual(animations(scene.layer(named: "b")).first { $0.keyPath == "opacity" }?.duration, 0.5)
        XCTAssertEqual(begins("a", "cornerRadius"), [3.5])
        XCTAssertEqual(begins("b", "cornerRadius"), [3.75])
        XCTAssertEqual(begins("c", "cornerRadius"), [4.0])
        XCTAssertEqual(begins("c", "zPosition"), [5.0, 5.5])
        XCTAssertEqual(begins("c", "opacity"), [3.5])
        // A chain of `to:` steps moves on from where the previous one left the property.
        let second = try XCTUnwrap(animations(scene.layer(named: "a")).last { $0.keyPath == "opacity" } as? CABasicAnimation)
        XCTAssertEqual(second.fromValue as? CGFloat, 0.5)
        XCTAssertEqual(second.fillMode, .forwards)
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: scene.layer(named: "a")!, at: 1.2)).opacity, 0.5)
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: scene.layer(named: "a")!, at: 2.5)).opacity, 0.75, accuracy: 1e-6)
    }

    func testStatesAndChanges() throws {
        let scene = Scene(size: CGSize(width: 200, height: 200), duration: 3) {
            Layer().frame(width: 40, height: 40).background(.red).id("card")
                .state("big") { $0.opacity(0.5).cornerRadius(20) }
                .timeline {
                    Wait(1)
                    Transition(to: "big", duration: 0.5, timing: .linear)
                    Change(.borderWidth, to: 4)
                }
        }
        let card = try XCTUnwrap(scene.layer(named: "card"))
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: card, at: 1.25)).cornerRadius, 10, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: card, at: 1.25)).opacity, 0.75, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: card, at: 1.4)).borderWidth, 0)
        XCTAssertEqual(try XCTUnwrap(scene.presentation(of: card, at: 1.6)).borderWidth, 4)
    }

    func testStacksCentreAndPinLayOutWithoutCoordinates() throws {
        let scene = Scene(size: CGSize(width: 400, height: 300), duration: 1) {
            HStack(alignment: .bottom, spacing: 10) {
                Layer().frame(width: 20, height: 40).id("h1")
                Layer().frame(width: 30, height: 10).id("h2")
            }
            .center().id("row")
            VStack(alignment: .trailing, spacing: 5) {
                Layer().frame(width: 50, height: 10).id("v1")
                Layer().frame(width: 20, height: 10).id("v2")
            }
            .pin(.bottomTrailing, inset: 16).id("column")
            Layer().frame(width: 10, height: 10).pin(.top, inset: 8).offset(x: 5, y: 0).id("pinned")
        }
        XCTAssertEqual(scene.layer(named: "row")?.frame, CGRect(x: 170, y: 130, width: 60, height: 40))
        XCTAssertEqual(scene.layer(named: "h1")?.frame, CGRect(x: 0, y: 0, width: 20, height: 40))
        XCTAssertEqual(scene.layer(named: "h2")?.frame, CGRect(x: 30, y: 30, width: 30, height: 10))
        XCTAssertEqual(scene.layer(named: "column")?.frame, CGRect(x: 334, y: 259, width: 50, height: 25))
        XCTAssertEqual(scene.layer(named: "v2")?.frame, CGRect(x: 30, y: 15, width: 20, height: 10))
        XCTAssertEqual(scene.layer(named: "pinned")?.frame, CGRect(x: 200, y: 8, width: 10, height: 10))
    }

    func testControlFlowAndComponents() throws {
        struct Badge: Component {
            let label: String
            var body: some NodeConvertible {
                Text(label).font("DejaVu Sans", size: 12).id("badge-\(label)")
            }
        }
        let showExtra = false
        let scene = Scene(size: CGSize(width: 200, height: 100), duration: 1) {
            for name in ["a", "b"] { Badge(label: name) }
            if showExtra { Layer().id("extra") } else { Layer().id("instead") }
        }
        XCTAssertNotNil(scene.layer(named: "badge-a"))
        XCTAssertNotNil(scene.layer(named: "badge-b"))
        XCTAssertNil(scene.layer(named: "extra"))
        XCTAssertNotNil(scene.layer(named: "instead"))
    }

    func testImagesVideosAndMasks() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var red = Bitmap(width: 8, height: 4)
        for i in 0..<32 { red.pixels[i * 4] = 255; red.pixels[i * 4 + 3] = 255 }
        try red.writePNG(to: dir.appendingPathComponent("red.png"))
        let clip = dir.appendingPathComponent("clip.mp4")
        let r = try runProcess("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x00FF00:s=32x16:r=10:d=2",
                                          "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let scene = Scene(size: CGSize(width: 100, height: 60), frameRate: 10, duration: 2, background: .white, assetFolder: dir) {
            Image("red.png").id("image")                                         // its own size, 8 × 4
            Image("red.png").frame(x: 0, y: 20, width: 40, height: 20).gravity(.resizeAspect).id("fitted")
            Video("clip.mp4", start: 0.5).frame(x: 60, y: 0, width: 32, height: 16).id("video")
            Layer().frame(x: 50, y: 30, width: 40, height: 20).background(.blue)
                .mask { Shape(.ellipse(in: CGRect(x: 0, y: 0, width: 40, height: 20))) }.id("masked")
        }
        XCTAssertEqual(scene.layer(named: "image")?.bounds.size, CGSize(width: 8, height: 4))
        XCTAssertEqual(scene.layer(named: "fitted")?.contentsGravity, .resizeAspect)
        XCTAssertTrue(scene.layer(named: "video") is AVPlayerLayer)
        XCTAssertTrue(scene.layer(named: "masked")?.mask is CAShapeLayer)
        let f = try scene.renderFrame(at: 1)
        XCTAssertEqual(f.pixel(x: 4, y: 2).r, 255)                              // the image
        XCTAssertEqual(f.pixel(x: 20, y: 30).r, 255)                            // fitted: 40 × 20 centred in 40 × 20
        XCTAssertGreaterThan(f.pixel(x: 76, y: 8).g, 200)                       // the video plays green
        XCTAssertEqual(f.pixel(x: 70, y: 40).b, 255)                            // inside the ellipse mask
        XCTAssertEqual(f.pixel(x: 51, y: 31).r, 255)                            // the corner is masked away: white
    }

    /// `.gravity(_:)` in the DSL and `videoGravity:` in a template reach the layer as the
    /// constant (`resizeAspectFill` once showed as the default, `resizeAspect`), and the frame
    /// follows: a 32 × 16 clip in a 32 × 32 layer leaves bands above and below only when fitted.
    func testVideoGravityReachesTheLayerFromTheDSLAndTemplates() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try runProcess("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x00FF00:s=32x16:r=10:d=2",
                                          "-c:v", "libx264", "-pix_fmt", "yuv420p", dir.appendingPathComponent("clip.mp4").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        for gravity in [AVLayerVideoGravity.resize, .resizeAspect, .resizeAspectFill] {
            let scene = Scene(size: CGSize(width: 32, height: 32), frameRate: 10, duration: 2, background: .white, assetFolder: dir) {
                Video("clip.mp4").frame(x: 0, y: 0, width: 32, height: 32).gravity(gravity).id("video")
            }
            XCTAssertEqual((scene.layer(named: "video") as? AVPlayerLayer)?.videoGravity, gravity)
            let f = try scene.renderFrame(at: 1)
            let top = f.pixel(x: 16, y: 2)
            if gravity == .resizeAspect {
                XCTAssertEqual(top.r, 255, "fitted: white band above the clip")
            } else {
                XCTAssertGreaterThan(top.g, 200, "\(gravity.rawValue): the clip covers the top row")
                XCTAssertLessThan(top.r, 60, "\(gravity.rawValue): the clip covers the top row")
            }
        }
        let composition = try JSONDecoder().decode(Composition.self, from: Data("""
            {"size": [32, 32], "frameRate": 10, "duration": 2,
             "layers": [{"type": "video", "id": "video", "video": "clip.mp4", "size": [32, 32], "videoGravity": "resizeAspectFill"}]}
            """.utf8))
        let scene = try Scene(composition: composition, options: CompositionOptions(assetFolder: dir))
        XCTAssertEqual((scene.layer(named: "video") as? AVPlayerLayer)?.videoGravity, .resizeAspectFill)
    }

    func testCodableRoundTripRendersTheSameBytes() throws {
        let scene = Scene(size: CGSize(width: 160, height: 90), frameRate: 10, duration: 2, background: Color(oklch: 0.3, 0.05, 260)) {
            VStack(spacing: 4) {
                Text("Round trip").font("DejaVu Sans Bold", size: 18).foreground(.white).slideIn(from: .bottom)
                Shape(.svg("M0 0 L40 0 L20 20 Z")).fill(Color(red: 0.3, green: 0.9, blue: 0.5)).draw(duration: 1)
            }
            .center()
            Layer().frame(x: 4, y: 4, width: 12, height: 12).background(.yellow).id("dot")
            Timeline {
                Animate("dot", .position.x, to: 140, duration: 1, timing: .named(.easeInOutSine))
                Animate("dot", .rotation, to: .degrees(45), duration: 0.5, timing: .bezier(0.2, 0, 0.2, 1))
            }
        }
        let json = try XCTUnwrap(scene.composition).jsonData()
        let decoded = try JSONDecoder().decode(Composition.self, from: json)
        XCTAssertEqual(decoded, scene.composition)
        let again = try Scene(composition: decoded)
        for t in [0.0, 0.3, 0.9, 1.4, 1.9] {
            XCTAssertTrue(try scene.renderFrame(at: t).pixels == again.renderFrame(at: t).pixels, "t = \(t)")
        }
        XCTAssertTrue(try scene.renderFrame(at: 0.3).pixels != scene.renderFrame(at: 1.4).pixels)
        XCTAssertEqual(try decoded.jsonData(), json)                          // canonical: same bytes again
    }

    func testErrorsNameThePathAndWhatWasExpected() throws {
        let json = """
        {"size": [100, 100], "frameRate": 30, "duration": 1,
         "layers": [
           {"type": "text", "string": "x", "fontSize": "big"},
           {"type": "layer", "id": "a", "position": "left", "opacity": 0.5, "colour": "red"},
           {"type": "shape", "path": {"svg": "M0 0 X 4"}}
         ],
         "timeline": [
           {"type": "animate", "target": "missing", "property": "opacity", "to": 1, "duration": 1},
           {"type": "animate", "target": "a", "property": "backgroundColor", "to": [1, 2], "duration": 1},
           {"type": "animate", "target": "a", "property": "opacity", "to": 1, "duration": 1, "timing": "bouncy"}
         ]}
        """
        let composition = try JSONDecoder().decode(Composition.self, from: Data(json.utf8))
        XCTAssertThrowsError(try Scene(composition: composition)) { error in
            let lines = "\(error)".split(separator: "\n").map(String.init)
            XCTAssertTrue(lines.contains("layers[0].fontSize: expected a number, got \"big\""), "\(lines)")
            XCTAssertTrue(lines.contains("layers[1].position: expected a point [x, y], got \"left\""), "\(lines)")
            XCTAssertTrue(lines.contains { $0.hasPrefix("layers[1].colour: unknown property for a layer layer (known: ") }, "\(lines)")
            XCTAssertTrue(lines.contains("layers[2].path: expected path data: command 'X' is not supported (M L H V C S Q T Z), got {\"svg\": \"M0 0 X 4\"}"), "\(lines)")
            XCTAssertTrue(lines.contains { $0.hasPrefix("timeline[0].target: no layer has the id \"missing\"") }, "\(lines)")
            XCTAssertTrue(lines.contains { $0.hasPrefix("timeline[1]: to: expected a colour") && $0.hasSuffix("got [1, 2]") }, "\(lines)")
            XCTAssertTrue(lines.contains { $0.hasPrefix("timeline[2]: timing: unknown curve \"bouncy\"") }, "\(lines)")
        }
        // A DSL scene keeps its problems for the first render.
        let dsl = Scene(size: CGSize(width: 10, height: 10), duration: 1) {
            Timeline { Animate("nobody", .opacity, to: 1) }
        }
        XCTAssertThrowsError(try dsl.renderFrame(at: 0)) { XCTAssertTrue("\($0)".contains("no layer has the id \"nobody\"")) }
    }
}

private extension CGSize {
    var rounded: CGSize { CGSize(width: width.rounded(.up), height: height.rounded(.up)) }
}
