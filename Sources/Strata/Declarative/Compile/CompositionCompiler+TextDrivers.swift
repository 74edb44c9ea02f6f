// Text that changes: counters (a text layer whose `value` animates, written in a `format`) and
// reveals (a text layer whose `revealed` fraction animates, shown by characters, words, lines or
// a scramble). Both compile to one Core Animation animation of the text layer's `string`: a
// discrete CAKeyframeAnimation with a key at each frame where the text changes.
//
// The numbers are animated as any other: the animations of `value` and `revealed` (a layer's own,
// timeline steps, states, springs, repeats) are made on a scratch layer that is never shown, under
// those custom keys, by the same code as every other animation. Once every animation is made, the
// scratch layer's presentation is read at each frame of the scene, the text computed from it, and
// the keys placed half a frame before the frames where the text changes, so a frame made alone, in
// any order, on any worker, shows the same text.
//
// A counter is as wide as the widest text it shows (measured once per shape of text: with
// tabular digits, "1,234" and "9,876" are the same width), unless it is given a size.
import Foundation
import StrataCore

/// A text layer whose string the compiler computes from animated numbers.
final class TextDriver {
    let layer: CATextLayer
    let node: Node
    let path: String
    /// Holds the animated numbers under `value` and `revealed`; never part of the scene.
    let scratch = CALayer()
    /// The counter's writer (nil: the text is the node's `string`).
    let writer: NumberWriter?
    /// The text revealed (when there is no counter).
    let text: String
    let reveal: TextReveal?
    /// Whether digits are drawn tabular (then every digit is as wide as "0").
    let tabular: Bool

    init(layer: CATextLayer, node: Node, path: String, writer: NumberWriter?, text: String, reveal: TextReveal?, tabular: Bool,
         value: Double, revealed: Double) {
        self.layer = layer; self.node = node; self.path = path; self.writer = writer; self.text = text; self.reveal = reveal
        self.tabular = tabular
        if writer != nil { scratch.setAnimatableValue(.number(CGFloat(value)), forKey: "value") }
        if reveal != nil { scratch.setAnimatableValue(.number(CGFloat(revealed)), forKey: "revealed") }
    }

    /// The units of a fixed text that is revealed, split once.
    private lazy var units: TextReveal.Units? = writer == nil ? reveal?.units(of: text) : nil

    /// The text shown for these numbers.
    func string(value: Double, revealed: Double) -> String {
        if let reveal, let units { return reveal.text(units, at: revealed) }
        let full = writer.map { $0.text(value) } ?? text
        return reveal.map { $0.text(full, at: revealed) } ?? full
    }

    /// The text shown at scene time `t` (the scratch layer's presentation).
    func string(at t: Double) -> String {
        let p = PresentationBuilder(time: t).presentationTree(of: scratch)
        let v = p.animatableValue(forKey: "value")?.number.map(Double.init) ?? 0
        let r = p.animatableValue(forKey: "revealed")?.number.map(Double.init) ?? 1
        return string(value: v, revealed: r)
    }
}

extension CompositionCompiler {
    /// The keys of a text node that make it a counter or a reveal (read here, not set on the layer).
    static let textDriverKeys: Set<String> = ["value", "format", "monospacedDigits", "reveal", "revealed"]

    /// Makes a text node with counter or reveal keys a driven text: checks the keys, sets the
    /// layer's string to the widest text its own animations show (so it is measured and laid out
    /// at that size) and its digits tabular, and registers it for its animations.
    mutating func prepareTextDriver(_ node: Node, layer: CALayer, path: String) {
        guard node.type == .text, let text = layer as? CATextLayer,
              !Self.textDriverKeys.isDisjoint(with: node.properties.keys) else { return }
        let props = node.properties
        func number(_ key: String) -> Double? {
            guard let v = props[key] else { return nil }
            guard let n = v.number, n.isFinite else { issue("\(path).\(key)", "expected a number, got \(v)"); return nil }
            return n
        }
        let isCounter = props["value"] != nil || props["format"] != nil
        let value = number("value") ?? 0
        var format = NumberFormat()
        if let f = props["format"] {
            do { format = try NumberFormat(f) } catch {
                issue("\(path).format\(error.key.map { ".\($0)" } ?? "")", error.message)
            }
        }
        var reveal: TextReveal?
        if let r = props["reveal"] {
            do { reveal = try TextReveal(r) } catch {
                issue("\(path).reveal\(error.key.map { ".\($0)" } ?? "")", error.message)
                reveal = TextReveal(.characters)
            }
        } else if props["revealed"] != nil {
            reveal = TextReveal(.characters)
        }
        let revealed = number("revealed") ?? 0
        var tabular = isCounter
        if let m = props["monospacedDigits"] {
            if case .bool(let b) = m { tabular = b } else { issue("\(path).monospacedDigits", "expected true or false, got \(m)") }
        }
        if isCounter, props["string"] != nil {
            issue("\(path).string", "a counter shows its value: put text around it with the format's \"prefix\" and \"suffix\", not \"string\"")
        }
        // With a problem reported, the text is still registered (with defaults where a key was
        // wrong), so its animations of value or revealed are not reported a second time.
        if tabular { text.font = UIFont(name: text.fontName, size: text.fontSize)!.monospacedDigits() }
        let writer = isCounter ? NumberWriter(format) : nil
        let driver = TextDriver(layer: text, node: node, path: path, writer: writer, text: text.string as? String ?? "",
                                reveal: reveal, tabular: tabular, value: value, revealed: revealed)
        // Measured and laid out at the widest text its own animations reach (a timeline's may
        // widen it later, about its anchor point).
        var candidates = [driver.string(value: value, revealed: 1)]
        if isCounter {
            for a in node.animations where a.property == "value" {
                for v in [a.from, a.to].compactMap({ $0 }) + (a.values ?? []) {
                    if let n = v.number, n.isFinite { candidates.append(driver.string(value: n, revealed: 1)) }
                }
                if let by = a.by?.number, by.isFinite { candidates.append(driver.string(value: value + by, revealed: 1)) }
            }
        }
        text.string = widest(Set(candidates), of: driver).text
        textDrivers.append(driver)
    }

    /// How many different texts (shapes of text) are measured at most to size a driven text.
    static let measuredShapes = 256

    /// The widest of `texts` as `driver`'s layer draws them, and its size.
    func widest(_ texts: Set<String>, of driver: TextDriver) -> (text: String, size: CGSize) {
        let layer = driver.layer
        let saved = layer.string
        defer { layer.string = saved }
        let wrap = driver.node.properties["wrapWidth"].flatMap { try? PropertyDecoding.number($0) }
        // With tabular digits, texts that differ only in their digits are as wide.
        var shapes: [String: String] = [:]
        for t in texts.sorted() {
            let shape = driver.tabular ? String(t.map { $0.isASCII && $0.isNumber ? "0" : $0 }) : t
            if shapes[shape] == nil { shapes[shape] = t }
        }
        var measured = shapes.keys.sorted()
        if measured.count > Self.measuredShapes {
            // Past a few hundred, the longest are measured (a text's width grows with its length):
            // a scramble over an hour of frames is not laid out 100 000 times.
            let lengths = Dictionary(uniqueKeysWithValues: measured.map { ($0, $0.count) })
            measured = Array(measured.sorted { lengths[$0]! != lengths[$1]! ? lengths[$0]! > lengths[$1]! : $0 < $1 }
                .prefix(Self.measuredShapes))
        }
        var best = (text: texts.sorted().first ?? "", size: CGSize.zero)
        for shape in measured {
            layer.string = shape
            guard let content = layer.textContent,
                  TextCost.problem(of: content.cost(scalarLimit: limits.textLength), scalarLimit: limits.textLength,
                                   characterLimit: limits.characterScalars) == nil else { continue }
            let s = TextMetrics.size(of: content, constrainedToWidth: wrap)
            if s.width > best.size.width || (s.width == best.size.width && s.height > best.size.height) {
                best = (shapes[shape]!, CGSize(width: max(s.width, best.size.width), height: max(s.height, best.size.height)))
            } else {
                best.size.height = max(best.size.height, s.height)
            }
        }
        return best
    }

    /// An animation of `value` or `revealed` of a driven text goes to its scratch layer.
    mutating func routeTextDriverAnimation(_ p: Pending) -> Pending? {
        let key = p.spec.property
        guard key == "value" || key == "revealed", p.layer is CATextLayer else { return p }
        guard let driver = textDrivers.first(where: { $0.layer === p.layer }) else {
            issue("\(p.path).property", key == "value"
                  ? "\"value\" animates a counter: give the text layer a \"value\" (and a \"format\"), or use Counter in the DSL"
                  : "\"revealed\" animates a reveal: give the text layer a \"reveal\" (characters, words, lines or scramble)")
            return nil
        }
        if key == "value", driver.writer == nil {
            issue("\(p.path).property", "\"value\" animates a counter: give the text layer a \"value\" (and a \"format\")")
            return nil
        }
        if key == "revealed", driver.reveal == nil {
            issue("\(p.path).property", "\"revealed\" animates a reveal: give the text layer a \"reveal\" (characters, words, lines or scramble)")
            return nil
        }
        var routed = Pending(layer: driver.scratch, spec: p.spec, start: p.start, path: p.path, order: p.order)
        routed.isSet = p.isSet
        return routed
    }

    /// Gives each driven text its string animation (after `finishAnimations`).
    mutating func finishTextDrivers() {
        guard !textDrivers.isEmpty else { return }
        let frames = Int(min((duration * fps).rounded(.up), Double(Int.max / 4)))
        // The keyframes' texts are held in memory: bounded as a template's text is.
        var bytes = 0
        for driver in textDrivers {
            let animated = !(driver.scratch.animationKeys() ?? []).isEmpty
            var values: [String] = []
            var keyFrames: [Int] = []
            if animated {
                // The frames while the numbers move are read (before the first animation begins
                // and after the last ends they hold still), bounded as timeline steps are.
                let span = activeSpan(of: driver.scratch)
                let first = min(max(0, Int((span.lowerBound * fps).rounded(.down))), max(frames, 0))
                let last = max(first, min(frames, Int(min((span.upperBound * fps).rounded(.up), Double(Int.max / 4)))))
                guard countTextSamples(last - first + 1, path: driver.path) else { return }
                var previous: String?
                for k in first...last {
                    let s = driver.string(at: Double(k) / fps)
                    guard s != previous else { continue }
                    values.append(s); keyFrames.append(k == first ? 0 : k); previous = s
                    bytes += s.utf8.count
                    if bytes > limits.expansionBytes {
                        issue(driver.path, limits.exceededMessage("the changing texts' keyframes hold more text", name: "expansion-mb"))
                        return
                    }
                }
            } else {
                values = [driver.string(at: 0)]
                keyFrames = [0]
            }
            let layer = driver.layer
            if explicitSize(of: driver.node) == nil {
                let need = widest(Set(values), of: driver).size
                let wrap = driver.node.properties["wrapWidth"].flatMap { try? PropertyDecoding.number($0) }
                let width = wrap ?? need.width.rounded(.up), height = need.height.rounded(.up)
                if width > layer.bounds.width || height > layer.bounds.height {
                    layer.bounds.size = CGSize(width: max(width, layer.bounds.width), height: max(height, layer.bounds.height))
                }
            }
            layer.string = values[0]
            guard values.count > 1 else { continue }
            // Keys half a frame before the frames where the text changes.
            let length = Double(frames + 1) / fps
            let animation = CAKeyframeAnimation(keyPath: "string")
            animation.values = values
            animation.keyTimes = keyFrames.map { NSNumber(value: $0 == 0 ? 0 : (Double($0) - 0.5) / fps / length) }
            animation.calculationMode = .discrete
            animation.duration = length
            animation.beginTime = 0
            animation.fillMode = .both
            animation.isRemovedOnCompletion = false
            layer.add(animation, forKey: "strata.text")
        }
    }

    /// The scene times from the first animation's beginning to the last one's end (the scene's
    /// end for one that repeats forever).
    func activeSpan(of layer: CALayer) -> ClosedRange<Double> {
        var lower = Double.infinity, upper = -Double.infinity
        for key in layer.animationKeys() ?? [] {
            guard let a = layer.animation(forKey: key) else { continue }
            let cycles = a.repeatCount > 0 ? Double(a.repeatCount) : 1
            let length = a.duration * cycles * (a.autoreverses ? 2 : 1)
            lower = min(lower, a.beginTime)
            upper = max(upper, length.isFinite ? a.beginTime + length : duration)
        }
        return lower <= upper ? lower...upper : 0...duration
    }

    /// Counts `n` frames read for driven texts against the timeline-step limit.
    mutating func countTextSamples(_ n: Int, path: String) -> Bool {
        let (total, overflow) = stepCount.addingReportingOverflow(n)
        guard overflow || total > limits.timelineSteps else { stepCount = total; return true }
        stepsExhausted = true
        issue(path, limits.exceededMessage("the changing texts are read at \(n) frames each (more than \(limits.timelineSteps) timeline steps in all)",
                                           name: "timeline-steps"))
        return false
    }
}
