// The page's timeline, read from the scene's own model: every named layer of the CALayer tree
// (a template's or DSL element's `id`) with the active interval of each of its animations and
// the scene times of their keyframes, plus the timeline's markers. The scene is first moved to
// its end, so that the animations its scheduled blocks add are on the layers too.
import Foundation
import Strata

enum StudioTimeline {
    /// `[{layer, depth, animations: [{key, keyPath, kind, begin, end, ticks}]}]` and the markers.
    static func describe(_ scene: Scene) -> (rows: [[String: Any]], markers: [[String: Any]]) {
        _ = try? scene.presentation(of: scene.rootLayer, at: scene.duration)
        var rows: [[String: Any]] = []
        var visited = 0
        func walk(_ layer: CALayer, depth: Int) {
            visited += 1
            guard visited <= 5_000 else { return }
            if let name = layer.name, !name.isEmpty, name != "root" || depth > 0 {
                var animations: [[String: Any]] = []
                for key in (layer.animationKeys() ?? []).sorted(by: keyOrder) {
                    guard let a = layer.animation(forKey: key) else { continue }
                    animations.append(describe(a, key: key, offset: 0, sceneEnd: scene.duration))
                }
                rows.append(["layer": name, "depth": depth, "type": String(describing: type(of: layer)), "animations": animations])
            }
            for sub in layer.sublayers ?? [] { walk(sub, depth: depth + 1) }
        }
        walk(scene.rootLayer, depth: 0)
        let markers = scene.markers.sorted { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }
            .map { ["name": $0.key, "time": $0.value] as [String: Any] }
        return (rows, markers)
    }

    /// "strata.2" before "strata.10".
    private static func keyOrder(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: .numeric) == .orderedAscending
    }

    /// One animation's interval in scene time and its keyframe ticks (a group's members inside it).
    static func describe(_ a: CAAnimation, key: String, offset: Double, sceneEnd: Double) -> [String: Any] {
        // Any numbers an animation may hold (NaN, ∞, 1e300) give finite intervals in the scene.
        let begin = (offset + a.beginTime).isFinite ? min(max(offset + a.beginTime, -sceneEnd), sceneEnd) : 0
        let single = a.duration > 0 && a.duration.isFinite ? a.duration : 0.25
        let speed = a.speed == 0 || !a.speed.isFinite ? 1 : Double(abs(a.speed))
        let cycle = single * (a.autoreverses ? 2 : 1) / speed
        var active: Double
        if a.repeatDuration > 0 { active = a.repeatDuration / speed }
        else if a.repeatCount.isInfinite { active = .infinity }
        else { active = cycle * Double(max(a.repeatCount, 1)) }
        if active.isNaN { active = cycle }
        let end = max(begin, min(begin + active, sceneEnd))
        var ticks: [Double] = []
        let count = Double(a.repeatCount)
        let repeats = !count.isFinite || count > 200 ? 200 : max(1, Int(count.rounded(.up)))
        var starts: [Double] = []
        var s = begin
        while s <= end + 1e-9, starts.count < repeats, cycle.isFinite, cycle > 0 { starts.append(s); s += cycle }
        if starts.isEmpty { starts.append(begin) }
        var kind = "animation"
        var keyPath: String?
        if let p = a as? CAPropertyAnimation { keyPath = p.keyPath }
        if let k = a as? CAKeyframeAnimation {
            kind = "keyframe"
            let count = k.values?.count ?? 0
            let times = k.keyTimes?.map { $0.doubleValue } ?? (count > 1 ? (0..<count).map { Double($0) / Double(count - 1) } : [0, 1])
            for start in starts { for f in times { ticks.append(start + f * single / speed) } }
        } else if a is CABasicAnimation {
            kind = a is CASpringAnimation ? "spring" : "basic"
            for start in starts { ticks.append(start); ticks.append(start + single / speed) }
        } else if a is CAAnimationGroup {
            kind = "group"
        } else if a is CATransition {
            kind = "transition"
        }
        var result: [String: Any] = ["key": key, "kind": kind, "begin": begin, "end": end]
        if let keyPath { result["keyPath"] = keyPath }
        result["ticks"] = ticks.filter { $0.isFinite && $0 <= end + 1e-9 }.map { ($0 * 1e6).rounded() / 1e6 }
        if let g = a as? CAAnimationGroup {
            result["animations"] = (g.animations ?? []).prefix(100).enumerated().map { i, m in
                describe(m, key: "\(key)[\(i)]", offset: begin, sceneEnd: end)
            }
        }
        return result
    }
}
