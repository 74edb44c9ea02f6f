// `compositingFilter` set in scene blocks is part of the scene's history: frames asked for in any
// order show the filter in force at their time, and an unknown value becomes a scene note (an
// export's warning) naming the layer while the layer is drawn source-over.
import XCTest
import Strata

final class CompositingFilterSceneTests: XCTestCase {
    func testFilterChangesAreRecordedAndNoted() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        root.backgroundColor = CGColor(red: 0.8, green: 0.4, blue: 0.2, alpha: 1)
        let shade = CALayer()
        shade.name = "shade"
        shade.frame = root.bounds
        shade.backgroundColor = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
        root.addSublayer(shade)
        let scene = Scene(rootLayer: root, size: CGSize(width: 16, height: 16), frameRate: 10, duration: 3)
        scene.at(1) { shade.compositingFilter = "multiplyBlendMode" }
        scene.at(2) { shade.compositingFilter = "noSuchBlendMode" }

        func centre(_ t: Double) throws -> [Double] {
            let p = try scene.renderFrame(at: t).pixel(x: 8, y: 8)
            return [Double(p.r), Double(p.g), Double(p.b)]
        }
        // Multiply (0.5 grey · (0.8, 0.4, 0.2) = (0.4, 0.2, 0.1)) at 1.5 s; grey source-over before
        // and after; asked out of order. Tolerance: 1 level.
        let multiplied = [102, 51, 25.5], grey = [127.5, 127.5, 127.5]
        for (t, want) in [(1.5, multiplied), (0.5, grey), (2.5, grey), (1.2, multiplied), (0, grey)] {
            let got = try centre(t)
            for c in 0..<3 { XCTAssertEqual(got[c], want[c], accuracy: 1, "t = \(t), channel \(c)") }
        }
        XCTAssertEqual(scene.notes.count, 1)
        XCTAssertTrue(scene.notes.first?.contains("CALayer 'shade'") == true, scene.notes.first ?? "no note")
        XCTAssertTrue(scene.notes.first?.contains("noSuchBlendMode") == true, scene.notes.first ?? "no note")
    }
}

extension CompositingFilterSceneTests {
    /// An export warns once about an unknown filter, naming the layer, however many frames show it.
    func testExportWarnsOnceAboutAnUnknownFilter() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        let odd = CALayer()
        odd.name = "odd"
        odd.frame = root.bounds
        odd.backgroundColor = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
        odd.compositingFilter = "gaussianBlur"
        root.addSublayer(odd)
        let scene = Scene(rootLayer: root, size: CGSize(width: 16, height: 16), frameRate: 10, duration: 0.3)
        let messages = try exportWarnings(scene)
        XCTAssertEqual(messages.count, 1, "\(messages)")
        XCTAssertTrue(messages.first?.hasPrefix("CALayer 'odd': compositingFilter \"gaussianBlur\" is not supported") == true,
                      "\(messages)")
    }
}

final class CompositingFilterDSLTests: XCTestCase {
    /// The DSL's `blendMode` (the templates' `compositingFilter`) sets the layer's filter: grey
    /// 0.5 screened over (0.8, 0.4, 0.2) is b + s − b·s = (0.9, 0.7, 0.6), within 1 level.
    func testBlendModeModifier() throws {
        func scene(_ filter: String) throws -> Scene {
            try Scene(composition: Composition(size: CGSize(width: 16, height: 16), frameRate: 10, duration: 1, layers: [
                Layer().frame(CGRect(x: 0, y: 0, width: 16, height: 16)).background(Color(red: 0.8, green: 0.4, blue: 0.2)).node,
                Layer().frame(CGRect(x: 0, y: 0, width: 16, height: 16)).background(Color(white: 0.5)).blendMode(filter).node,
            ]))
        }
        let p = try scene("screenBlendMode").renderFrame(at: 0).pixel(x: 8, y: 8)
        XCTAssertEqual(Double(p.r), 229.5, accuracy: 1)
        XCTAssertEqual(Double(p.g), 178.5, accuracy: 1)
        XCTAssertEqual(Double(p.b), 153, accuracy: 1)
        XCTAssertThrowsError(try scene("noSuchBlendMode"))
    }
}
