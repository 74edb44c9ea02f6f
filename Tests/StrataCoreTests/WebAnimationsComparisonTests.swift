// Strata's media timing against Web Animations in Chromium, from the samples that
// Tests/WebAnimations/compare.py recorded (chromium_results.json) for the configurations in
// cases.json: the same timing expressed as CAAnimation and as element.animate().
//
// Tolerances: progress (getComputedTiming().progress, a double) 1e-6 — both sides solve
// cubic-bezier x(s) = progress numerically (Strata to 1e-6 in x, as CORE_ANIMATION §4.2 says;
// measured: 2e-8); position (computed `left`, which Chromium prints with 6 significant digits)
// to 0.6 units of its sixth significant digit (0.0006 px at 100–999 px, 0.006 px above 1000).
import XCTest
@testable import StrataCore

final class WebAnimationsComparisonTests: XCTestCase {
    private var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WebAnimations")
    }

    private func load(_ name: String) throws -> [String: Any] {
        let url = folder.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("\(name) is missing: run python3 Tests/WebAnimations/compare.py")
        }
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    private func timing(_ v: Any?) -> CAMediaTimingFunction? {
        if let c = v as? [Double], c.count == 4 {
            return CAMediaTimingFunction(controlPoints: Float(c[0]), Float(c[1]), Float(c[2]), Float(c[3]))
        }
        if let s = v as? [String: Any], let n = s["steps"] as? Int {
            return .steps(n, s["position"] as? String == "start" ? .jumpStart : .jumpEnd)
        }
        return nil
    }

    /// The case as a Core Animation animation on position.x.
    private func animation(_ spec: [String: Any]) -> CAPropertyAnimation {
        let values = spec["values"] as? [Double] ?? []
        let a: CAPropertyAnimation
        if values.count == 2 && spec["keyTimes"] == nil {
            let b = CABasicAnimation(keyPath: "position.x")
            b.fromValue = values[0]; b.toValue = values[1]
            a = b
        } else {
            let k = CAKeyframeAnimation(keyPath: "position.x")
            k.values = values
            k.keyTimes = (spec["keyTimes"] as? [Double])?.map { NSNumber(value: $0) }
            k.timingFunctions = (spec["timingFunctions"] as? [Any])?.compactMap { timing($0) }
            if spec["calculationMode"] as? String == "discrete" { k.calculationMode = .discrete }
            a = k
        }
        a.beginTime = spec["beginTime"] as? Double ?? 0
        a.duration = spec["duration"] as? Double ?? 0
        a.speed = Float(spec["speed"] as? Double ?? 1)
        a.timeOffset = spec["timeOffset"] as? Double ?? 0
        a.repeatCount = Float(spec["repeatCount"] as? Double ?? 0)
        a.repeatDuration = spec["repeatDuration"] as? Double ?? 0
        a.autoreverses = spec["autoreverses"] as? Bool ?? false
        let fill = CAMediaTimingFillMode(rawValue: spec["fill"] as? String ?? "removed")
        a.fillMode = fill
        a.isRemovedOnCompletion = !(fill == .forwards || fill == .both)
        a.timingFunction = timing(spec["timingFunction"])
        a.isAdditive = spec["additive"] as? Bool ?? false
        return a
    }

    func testStrataMatchesChromiumWebAnimations() throws {
        let cases = try XCTUnwrap(load("cases.json")["cases"] as? [[String: Any]])
        let results = try load("chromium_results.json")
        let chromium = try XCTUnwrap(results["cases"] as? [[String: Any]])
        XCTAssertEqual(cases.count, chromium.count, "re-run compare.py after changing cases.json")
        var worstProgress = 0.0, worstLeft = 0.0, samples = 0
        for (spec, recorded) in zip(cases, chromium) {
            let name = spec["name"] as? String ?? "?"
            XCTAssertEqual(recorded["name"] as? String, name)
            let layer = CALayer()
            layer.position = CGPoint(x: -1, y: 0)
            let first = animation(spec)
            try layer.addChecked(first, forKey: "0")
            for (i, extra) in ((spec["stack"] as? [[String: Any]]) ?? []).enumerated() {
                try layer.addChecked(animation(extra), forKey: "\(i + 1)")
            }
            let prepared = try layer.prepare(first)
            for sample in recorded["samples"] as? [[String: Any]] ?? [] {
                let t = try XCTUnwrap(sample["t"] as? Double)
                samples += 1
                // Progress after the animation's timing function, nil without effect.
                let raw = prepared.timing.evaluate(atParentTime: t).progress
                let progress = raw.map { first.timingFunction?.evaluate($0) ?? $0 }
                if let expected = sample["progress"] as? Double {
                    let p = try XCTUnwrap(progress, "\(name) at t = \(t): Chromium has progress \(expected), Strata none")
                    worstProgress = max(worstProgress, abs(p - expected))
                    XCTAssertEqual(p, expected, accuracy: 1e-6, "\(name): progress at t = \(t)")
                } else {
                    XCTAssertNil(progress, "\(name) at t = \(t): Chromium has no effect")
                }
                let left = try XCTUnwrap(sample["left"] as? Double)
                let x = Double(PresentationBuilder(time: t).presentationTree(of: layer).position.x)
                worstLeft = max(worstLeft, abs(x - left))
                let sixthDigit = pow(10, floor(log10(max(abs(left), 1))) - 5)
                XCTAssertEqual(x, left, accuracy: 0.6 * sixthDigit, "\(name): position at t = \(t)")
            }
        }
        print("Web Animations comparison (\(results["chromium"] as? String ?? "?")): \(samples) samples, "
              + "largest difference \(worstProgress) in progress, \(worstLeft) px in position")
    }
}
