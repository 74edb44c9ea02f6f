// The built-in templates (Templates/<name>/<name>.yaml), each made with its defaults as
// `strata render TEMPLATE` makes it, rendered at telling times at a third of their size, side by
// side in one strip per template, against reference strips reviewed by eye when recorded
// (tolerance 2 per channel, no pixel over it: the same renderer on the same fonts draws the same
// bytes). Beside the pictures, exact checks of what each template promises, read from the
// presentation tree: the bar-chart race's order at the first and last steps, the social clip's
// captions at and between their SubRip times, the countdown's digit and ring, the terminal's
// typing one whole character at a time (its `terminal` node is StrataTerminal's, registered as
// the `strata` command registers it).
import XCTest
@testable import Strata
import StrataTerminal
import StrataTestSupport

final class TemplateGalleryTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Templates")

    static let names = ["lower-third", "title-card", "quote-card", "bar-chart-race", "terminal-typing",
                        "logo-reveal", "countdown", "social-clip", "ken-burns", "slideshow"]

    override func setUp() { TerminalNodes.register() }

    private func template(_ name: String) throws -> Template {
        try Template(contentsOf: Self.folder.appendingPathComponent("\(name)/\(name).yaml"))
    }

    private func scene(_ name: String, _ values: [String: String] = [:]) throws -> Scene {
        try template(name).makeScene(TemplateArguments(text: values))
    }

    /// Frames at `times`, a third of the scene's size, in a row.
    private func strip(_ name: String, _ times: [Double]) throws -> Bitmap {
        let s = try scene(name)
        s.contentsScale = 1.0 / 3
        return ContactSheet.make(try times.map { try s.renderFrame(at: $0) }, columns: times.count, reduction: 1, spacing: 2)
    }

    /// The model layer named `name` (sublayers and masks searched).
    private func layer(_ name: String, in root: CALayer) throws -> CALayer {
        func find(_ l: CALayer) -> CALayer? {
            if l.name == name { return l }
            if let m = l.mask, let f = find(m) { return f }
            for s in l.sublayers ?? [] { if let f = find(s) { return f } }
            return nil
        }
        return try XCTUnwrap(find(root), "no layer named \(name)")
    }

    private func presented(_ name: String, in scene: Scene, at t: Double) throws -> CALayer {
        try XCTUnwrap(try scene.presentation(of: try layer(name, in: scene.rootLayer), at: t))
    }

    // MARK: The gallery as a whole

    func testEveryTemplateIsDescribedAndRendersWithItsDefaults() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .filter { var d: ObjCBool = false; return FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent($0).path, isDirectory: &d) && d.boolValue }
        XCTAssertEqual(Set(folders), Set(Self.names), "a template folder without a test here, or the other way round")
        for name in Self.names {
            let t = try template(name)
            XCTAssertGreaterThan(t.summary?.count ?? 0, 40, "\(name): a description of what it makes")
            for p in t.parameters {
                XCTAssertGreaterThan(p.help?.count ?? 0, 5, "\(name).\(p.name): a description")
                XCTAssertNotNil(p.defaultText, "\(name).\(p.name): a default, so the template renders with no --set")
            }
            let (composition, _) = try t.composition()
            XCTAssertGreaterThan(composition.duration, 1, name)
            // Sample assets stay small (they are committed).
            for file in try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent(name).path) {
                let size = try FileManager.default.attributesOfItem(atPath: Self.folder.appendingPathComponent("\(name)/\(file)").path)[.size] as? Int ?? 0
                XCTAssertLessThan(size, 200_000, "\(name)/\(file)")
            }
        }
    }

    // MARK: Reference strips

    func testLowerThird() throws {
        assertReferenceImage(try strip("lower-third", [0.3, 1.5, 4.7]), named: "lower-third")
    }

    func testTitleCard() throws {
        assertReferenceImage(try strip("title-card", [0.6, 1.2, 2.5, 4.8]), named: "title-card")
    }

    func testQuoteCard() throws {
        assertReferenceImage(try strip("quote-card", [0.4, 1.0, 3.0]), named: "quote-card")
    }

    func testBarChartRace() throws {
        // The first step, a swap half-way between two steps, the sixth step, the last.
        assertReferenceImage(try strip("bar-chart-race", [0, 1.8, 6.0, 12.0]), named: "bar-chart-race")
    }

    func testTerminalTyping() throws {
        assertReferenceImage(try strip("terminal-typing", [1.0, 3.0, 10.0]), named: "terminal-typing")
    }

    func testLogoReveal() throws {
        assertReferenceImage(try strip("logo-reveal", [0.5, 0.8, 1.75, 3.5]), named: "logo-reveal")
    }

    func testCountdown() throws {
        assertReferenceImage(try strip("countdown", [0.05, 1.5, 4.75, 5.6]), named: "countdown")
    }

    func testSocialClip() throws {
        assertReferenceImage(try strip("social-clip", [1.0, 1.85, 2.5, 4.7]), named: "social-clip")
    }

    func testKenBurns() throws {
        assertReferenceImage(try strip("ken-burns", [0.3, 2.0, 7.0]), named: "ken-burns")
    }

    func testSlideshow() throws {
        // The first slide, half-way through the first push, the second slide, a cube.
        assertReferenceImage(try strip("slideshow", [1.0, 2.2, 3.0]), named: "slideshow")
        let cube = try scene("slideshow", ["transition": "cube", "direction": "fromBottom"])
        cube.contentsScale = 1.0 / 3
        assertReferenceImage(try cube.renderFrame(at: 2.2), named: "slideshow-cube")
    }

    /// The slides overlap by their transitions: 3 × 2.5 − 2 × 0.6 = 6.3 s; the second slide
    /// starts at 1.9 s and, half-way through its push (easeInEaseOut is symmetric), is moved by
    /// half the width.
    func testSlideshowTiming() throws {
        let s = try scene("slideshow")
        XCTAssertEqual(s.duration, 6.3, accuracy: 1e-9)
        XCTAssertTrue(try presented("slide-2", in: s, at: 1.89).isHidden)
        // (CAMediaTimingFunction's solver gives easeInEaseOut(0.5) to 2·10⁻⁸.)
        XCTAssertEqual(Double(try presented("slide-2", in: s, at: 2.2).position.x), 640 + 640, accuracy: 1e-3)
        XCTAssertEqual(Double(try presented("slide-1", in: s, at: 2.2).position.x), 640 - 640, accuracy: 1e-3)
        XCTAssertEqual(Double(try presented("slide-2", in: s, at: 2.5).position.x), 640, accuracy: 1e-9)
        XCTAssertTrue(try presented("slide-1", in: s, at: 2.5).isHidden)
        XCTAssertTrue(try presented("slide-3", in: s, at: 3.75).isHidden)
        XCTAssertFalse(try presented("slide-3", in: s, at: 3.85).isHidden, "the third slide starts at 1.9 + 2.5 − 0.6 = 3.8 s")
    }

    // MARK: Exact checks

    /// data.csv's rows: year, name, value (a plain file: no quotes).
    private func rows() throws -> [[String]] {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("bar-chart-race/data.csv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map(String.init) }
    }

    /// data.csv's names by value at a step, largest first (ties in the file's order).
    private func order(atStep step: String) throws -> [(name: String, value: Double)] {
        let atStep: [(name: String, value: Double)] = try rows().filter { $0[0] == step }.map { ($0[1], Double($0[2])!) }
        let indices = atStep.indices.sorted { a, b in
            atStep[a].value != atStep[b].value ? atStep[a].value > atStep[b].value : a < b
        }
        return indices.map { atStep[$0] }
    }

    func testBarChartRaceRanksAndWidthsAtTheSteps() throws {
        let s = try scene("bar-chart-race")
        // Six rows in 760 points; the largest value of the file is 1280 points long.
        let rowHeight = 760.0 / 6, scale = 1280.0 / (try rows().map { Double($0[2])! }.max() ?? 1)
        for (step, t) in [("2015", 0.0), ("2024", 9 * 1.2)] {
            let expected = try order(atStep: step)
            for (rank, (name, value)) in expected.enumerated() {
                let row = try presented("row-\(name)", in: s, at: t)
                XCTAssertEqual(Double(row.transform.m42), Double(rank) * rowHeight, accuracy: 1e-6, "\(step) \(name)")
                XCTAssertEqual(row.opacity, rank < 6 ? 1 : 0, "\(step) \(name): only the top 6 are shown")
                let bar = try presented("bar-\(name)", in: s, at: t)
                XCTAssertEqual(Double(bar.bounds.width), value * scale, accuracy: 1e-6, "\(step) \(name)")
            }
        }
        // The largest bar is on top at the first step.
        XCTAssertEqual(try order(atStep: "2015").first?.name, "Apples")
        XCTAssertEqual(Double(try presented("row-Apples", in: s, at: 0).transform.m42), 0)
    }

    func testBarChartRaceValuesCountAndTheYearChangesHalfWay() throws {
        let s = try scene("bar-chart-race")
        func text(_ id: String, at frame: Int) throws -> String? {
            (try presented(id, in: s, at: s.time(ofFrame: frame)) as? CATextLayer)?.string as? String
        }
        // Each label is one counter following the data linearly from step to step (1.2 s, 36
        // frames a step): Apples 820 (2015) → 832 (2016), Bananas from data.csv likewise.
        let apples = try rows().filter { $0[1] == "Apples" }.map { Double($0[2])! }
        for frame in [0, 9, 18, 27, 36, 40, 54] {
            let step = Double(frame) / 36, k = Int(step), f = step - Double(k)
            let v = apples[k] + (apples[k + 1] - apples[k]) * f
            XCTAssertEqual(try text("value-Apples", at: frame), "\(Int(v.rounded(.toNearestOrAwayFromZero)))", "frame \(frame)")
        }
        XCTAssertEqual(try text("value-Apples", at: 12 * 30), "\(Int(try XCTUnwrap(apples.last)))")
        let largest = try XCTUnwrap(try rows().filter { $0[0] == "2024" }.map { Int($0[2])! }.max())
        let leader = try XCTUnwrap(try order(atStep: "2024").first?.name)
        XCTAssertEqual(try text("value-\(leader)", at: 12 * 30), "\(largest / 1000),\(String(format: "%03d", largest % 1000))")
        // The year: one text whose string changes half-way between steps (0.6 s, frame 18).
        XCTAssertEqual(try text("step", at: 17), "2015")
        XCTAssertEqual(try text("step", at: 19), "2016")
        XCTAssertEqual(try text("step", at: 53), "2016")
        XCTAssertEqual(try text("step", at: 55), "2017")
        XCTAssertEqual(try text("step", at: 12 * 30), "2024")
    }

    func testSocialClipShowsEachCaptionAtItsTimesOnly() throws {
        let s = try scene("social-clip")
        func shown(at t: Double) throws -> [Float] { try (0..<3).map { try presented("caption-\($0)", in: s, at: t).opacity } }
        XCTAssertEqual(try shown(at: 1.0), [1, 0, 0])
        XCTAssertEqual(try shown(at: 1.85), [0, 0, 0], "between cues 1 (ends 1.7 s) and 2 (starts 2.0 s)")
        XCTAssertEqual(try shown(at: 2.5), [0, 1, 0], "cue 2: 00:00:02,000 --> 00:00:03,400")
        XCTAssertEqual(try shown(at: 3.6), [0, 0, 0])
        XCTAssertEqual(try shown(at: 5.9), [0, 0, 0], "after the last cue (ends 5.6 s)")
        // The progress bar is half-way at half time.
        let bar = try XCTUnwrap(s.rootLayer.sublayers?.last)
        XCTAssertEqual(Double(try XCTUnwrap(try s.presentation(of: bar, at: 3)).bounds.width), 540, accuracy: 1e-6)
    }

    func testCountdownShowsOneDigitASecondAndTheRingRunsOut() throws {
        let s = try scene("countdown")
        // One counter, not a layer per digit: 5 → 0 in 5 s, rounded up, so each digit holds its
        // whole second (frame 30, t = 1 exactly, already shows 4).
        let digits = try XCTUnwrap(try layer("digits", in: s.rootLayer) as? CATextLayer)
        XCTAssertEqual(digits.animationKeys()?.compactMap { (digits.animation(forKey: $0) as? CAPropertyAnimation)?.keyPath }
                        .filter { $0 == "string" }.count, 1)
        for (frame, digit) in [(0, 5), (29, 5), (30, 4), (59, 4), (60, 3), (119, 2), (149, 1)] {
            let shown = (try presented("digits", in: s, at: s.time(ofFrame: frame)) as? CATextLayer)?.string as? String
            XCTAssertEqual(shown, "\(digit)", "frame \(frame)")
        }
        for (t, digit) in [(0.5, 5), (1.5, 4), (2.5, 3), (3.5, 2), (4.5, 1)] {
            let shown = try presented("digits", in: s, at: t)
            XCTAssertEqual((shown as? CATextLayer)?.string as? String, "\(digit)", "t = \(t)")
            XCTAssertEqual(shown.opacity, 1, "t = \(t)")
            let ring = try XCTUnwrap(try presented("ring", in: s, at: t) as? CAShapeLayer)
            XCTAssertEqual(Double(ring.strokeEnd), 0.5, accuracy: 1e-6, "t = \(t): half a second left of the second")
        }
        XCTAssertEqual(try presented("final", in: s, at: 5.5).opacity, 1)
    }

    func testTerminalTypesWholeCharacters() throws {
        let s = try scene("terminal-typing")
        let terminal = try XCTUnwrap(try layer("terminal", in: s.rootLayer) as? TerminalLayer)
        func row(_ r: Int, at t: Double) -> String {
            terminal.screenState(atLocalTime: t).text(ofRow: r).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
        // The first command starts being typed 0.3 s in, 18 characters a second.
        let command = "swift build -c release --product strata"
        for typed in [0, 1, 5, 12, command.count] {
            let t = 0.3 + (Double(typed) + 0.5) / 18
            XCTAssertEqual(row(0, at: t), ("$ " + command.prefix(typed)).trimmingCharacters(in: .whitespaces), "\(typed) characters at \(t) s")
        }
        // Its output waits for the pause after it; the second command's line shows once the
        // first is done; the window holds the session and the last prompt.
        let enter = 0.3 + Double(command.count) / 18 + 0.5
        XCTAssertEqual(row(1, at: enter - 0.05), "")
        XCTAssertEqual(row(1, at: enter + 0.05), "Building for production...")
        XCTAssertEqual(row(3, at: 1.0), "")
        XCTAssertEqual(row(3, at: 3.5), "$")
        XCTAssertEqual(terminal.timeline.rows, 8)
        XCTAssertEqual(row(7, at: s.duration - 0.01), "$")
        // The template's colours: the prompt bold in the theme's bright green, "complete!" green.
        let end = terminal.screenState(atLocalTime: s.duration)
        XCTAssertEqual(end[0, 0].foreground, .indexed(10))
        XCTAssertEqual(end[2, 0].foreground, .indexed(2))
        XCTAssertEqual(terminal.terminalStyle.windowTitle, "ada@strata: ~/demo")
    }

    func testTerminalTemplateScrollsAndTakesAThemeByName() throws {
        let lines = (1...12).map { $0 % 3 == 1 ? "$ step \($0)" : "line \($0)" }.joined(separator: ",")
        let s = try scene("terminal-typing", ["lines": lines, "rows": "5", "theme": "Paper"])
        let terminal = try XCTUnwrap(try layer("terminal", in: s.rootLayer) as? TerminalLayer)
        XCTAssertEqual(terminal.terminalStyle.theme.background, TerminalTheme.paper.background)
        let end = terminal.screenState(atLocalTime: s.duration)
        XCTAssertEqual((0..<5).map { end.text(ofRow: $0).trimmingCharacters(in: .whitespaces) },
                       ["line 9", "$ step 10", "line 11", "line 12", "$"])
    }

    /// `strata still` on a template with a video, in a process whose first scene is that one.
    func testCommandLineRendersTheVideoTemplate() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let png = out.appendingPathComponent("still.png")
        let r = try runProcess(strataExecutable, ["still", Self.folder.appendingPathComponent("social-clip").path,
                                                  "--time", "2.5", "--scale", "0.125", "-o", png.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let image = try Bitmap(contentsOfPNG: png)
        XCTAssertEqual([image.width, image.height], [135, 240])
    }
}
