// Hostile variations of the fixtures: values replaced by other types, huge or negative numbers,
// keys removed, arrays emptied, references pointed elsewhere. Each must either render a small
// frame or fail with a LottieError that names where — never crash or hang.
import Foundation
import XCTest
import Strata
import StrataLottie
import StrataTestSupport

final class LottieMutationTests: XCTestCase {
    private var replacements: [Any] { [
        NSNull(), "x", true, 0, -1, 1e308, -1e308, 1e-300, 2_000_000_000, [Any](), [0], [1e308, -1e308, 0],
        [String: Any](), ["a": 1, "k": [["t": 0, "s": [1e308]], ["t": 1e9, "s": [0]]]], ["k": [Any]()],
    ] }

    /// Replaces one randomly chosen value somewhere in the tree.
    private func mutate(_ value: Any, _ rng: inout SplitMix, depth: Int = 0) -> Any {
        if depth > 0 && Int.random(in: 0..<6, using: &rng) == 0 {
            return replacements[Int.random(in: 0..<replacements.count, using: &rng)]
        }
        if var dict = value as? [String: Any], !dict.isEmpty {
            let key = dict.keys.sorted()[Int.random(in: 0..<dict.count, using: &rng)]
            if Int.random(in: 0..<8, using: &rng) == 0 { dict[key] = nil } else { dict[key] = mutate(dict[key]!, &rng, depth: depth + 1) }
            return dict
        }
        if var array = value as? [Any], !array.isEmpty {
            let i = Int.random(in: 0..<array.count, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: array.remove(at: i)
            case 1: array.append(array[i])
            default: array[i] = mutate(array[i], &rng, depth: depth + 1)
            }
            return array
        }
        return replacements[Int.random(in: 0..<replacements.count, using: &rng)]
    }

    func testMutatedFixturesNeverCrash() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: LottieFixtures.folder.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        var rng = SplitMix(seed: 46)
        var rendered = 0, refused = 0
        var limits = LottieLimits()
        limits.samples = 100_000
        for name in names {
            let original = try JSONSerialization.jsonObject(with: Data(contentsOf: LottieFixtures.folder.appendingPathComponent(name)))
            for round in 0..<15 {
                var doc = original
                for _ in 0..<(1 + round % 3) { doc = mutate(doc, &rng) }
                guard JSONSerialization.isValidJSONObject(doc),
                      let data = try? JSONSerialization.data(withJSONObject: doc) else { continue }
                do {
                    let layer = try LottieLayer(data: data, limits: limits)
                    let a = layer.animation!
                    let root = CALayer()
                    root.frame = CGRect(x: 0, y: 0, width: a.width, height: a.height)
                    root.addSublayer(layer)
                    let scene = Scene(rootLayer: root, size: CGSize(width: a.width, height: a.height), frameRate: a.frameRate,
                                      duration: max(a.duration, 1 / a.frameRate))
                    scene.contentsScale = CGFloat(min(1, 32 / max(a.width, a.height)))
                    if (try? scene.renderFrame(at: a.duration / 2)) != nil { rendered += 1 }
                } catch let e as LottieError {
                    XCTAssertFalse(e.message.isEmpty, "\(name) round \(round)")
                    refused += 1
                } catch {
                    XCTFail("\(name) round \(round): not a LottieError: \(error)")
                }
            }
        }
        // Both outcomes happen: the mutations are neither all harmless nor all fatal.
        XCTAssertGreaterThan(rendered, 10)
        XCTAssertGreaterThan(refused, 10)
    }
}
