// The `lottie` node of templates and the DSL: a LottieLayer placed, scaled and timed like any
// node, its colours, images and texts filled by name or slot id, so that a batch fills a
// designer's Lottie from CSV rows. Strata's compiler cannot name the layer (StrataLottie depends
// on Strata), so this module registers a kind compiler for the node type with
// `LottieNodes.register()`, as StrataTerminal does for `terminal`; the `strata` command, every
// StrataScript and the DSL's `Lottie` element call it.
//
//     - type: lottie
//       lottie: badge.json            # .json, .lottie or .tgs, beside the template
//       frame: [40, 40, 200, 200]     # scaled to fit (contentsGravity: resizeAspect by default)
//       start: 0.5                    # seconds into the scene (or its section)
//       speed: 1.5
//       loop: true                    # or a number of plays
//       segment: intro                # a marker's frames
//       colors: {Badge: "{{color}}"}  # by fill, stroke, group, layer or slot name
//       texts: {Title: "{{name}}"}    # by text layer or slot name
//       images: {photo: "{{photo}}"}  # by image asset, image layer or slot name
import Foundation
import Strata

/// Registers the `lottie` node kind with Strata's compiler.
public enum LottieNodes {
    /// Makes `lottie` nodes compile to `LottieLayer`s from now on (idempotent).
    public static func register() {
        NodeKindCompilers.register(LottieNodeCompiler(), for: .lottie)
    }
}

/// Compiles a `lottie` node.
struct LottieNodeCompiler: NodeKindCompiler {
    let properties: [String: String] = [
        "lottie": "the path of a Lottie file (.json, .lottie or .tgs)",
        "speed": "a playback rate in (0, 100]",
        "start": "the time it starts, in seconds",
        "loop": "true (for ever), false, or a number of plays",
        "segment": "the name of one of the Lottie's markers",
        "progress": "a fraction of its frames, 0…1 (pins the frame shown)",
        "colors": "colours by Lottie fill, stroke, group, layer or slot name",
        "images": "image files by Lottie asset, image layer or slot name",
        "texts": "texts by Lottie text layer or slot name",
    ]

    func makeLayer(for node: Node, context c: NodeKindContext) -> CALayer {
        guard let file = c.string(node, "lottie") else {
            if node.properties["lottie"] == nil { c.issue(nil, "a lottie layer needs \"lottie\": \(properties["lottie"]!)") }
            return CALayer()
        }
        let limits = LottieLimits(c.limits)
        let replacements = self.replacements(node, limits: limits, context: c)
        let layer: LottieLayer
        do {
            let url = try c.asset(file)
            layer = try LottieLayer(contentsOf: url, limits: limits, replacements: replacements)
        } catch {
            c.issue("lottie", "\(file): \(error)")
            return CALayer()
        }
        if let name = c.string(node, "segment") {
            do { try layer.playMarker(name) } catch { c.issue("segment", "\(file): \(error)") }
        }
        if let p = c.number(node, "progress", in: 0...1) { layer.progress = p }
        let speed = c.number(node, "speed", in: 0.001...100) ?? 1
        let start = c.time(node, "start") ?? 0
        var plays: Float = 1
        switch node.properties["loop"] {
        case nil, .bool(false)?: break
        case .bool(true)?: plays = .infinity
        case .number(let n)? where n >= 1 && n <= 1_000_000: plays = Float(n)
        case let v?: c.issue("loop", "expected \(properties["loop"]!), got \(v)")
        }
        // The Lottie's frames follow start, speed and loop; the node's own properties and
        // animations keep the scene's time.
        layer.schedulePlayback(at: start + c.startOffset, speed: Float(speed), repeatCount: plays)
        layer.bounds = CGRect(origin: .zero, size: c.explicitSize ?? layer.bounds.size)
        return layer
    }

    /// The node's `colors`, `images` and `texts` (their problems reported by key path).
    private func replacements(_ node: Node, limits: LottieLimits, context c: NodeKindContext) -> LottieReplacements {
        var r = LottieReplacements()
        func entries(_ key: String) -> [(String, PropertyValue)] {
            guard let v = node.properties[key] else { return [] }
            guard case .object(let o) = v else { c.issue(key, "expected an object of \(properties[key]!), got \(v)"); return [] }
            return o.sorted { $0.key < $1.key }
        }
        for (name, v) in entries("colors") {
            if let color = c.color(v, key: "colors.\(name)") { r.colors[name] = color.cgColor }
        }
        for (name, v) in entries("texts") {
            switch v {
            case .string(let s): r.texts[name] = s
            case .number(let n): r.texts[name] = n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
            default: c.issue("texts.\(name)", "expected text, got \(v)")
            }
        }
        for (name, v) in entries("images") {
            guard let path = v.string else { c.issue("images.\(name)", "expected the path of an image file, got \(v)"); continue }
            do {
                let url = try c.asset(path)
                let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
                guard size <= limits.fileBytes else { throw LottieError(path: "", "\(size) bytes, over the limit of \(limits.fileBytes)") }
                r.images[name] = try Data(contentsOf: url)
            } catch {
                c.issue("images.\(name)", "cannot read \"\(path)\": \(error)")
            }
        }
        return r
    }
}
