// Text animators (`t.a`): each a set of properties (position, anchor, scale, rotation, opacity,
// fill colour, hue, saturation and brightness, stroke colour and width, tracking) applied to the characters a range selector picks, in
// proportion to how much it picks each one (its factor, 0…1). The selector counts units —
// characters, characters other than spaces, words or lines — and its start, end and offset
// (percentages of the units, or unit indices) say where the range lies; its shape says how the
// factor rises and falls across it. The formulas are lottie-web's (the After Effects exporter's
// own player; the Lottie spec has no text yet): TextSelectorProperty for the factor,
// TextProperty for the unit of each character, TextAnimatorProperty for how the properties
// combine. LottieText+Animators.swift draws them, a layer a character.
import Foundation
import Strata

/// A text animator: the properties it changes and the selector that says on which characters.
struct LottieTextAnimator {
    var position, anchor, scale, rotation, opacity, fillColor, strokeColor, strokeWidth, tracking: LottieAnimated<[Double]>?
    /// Fill hue (degrees), saturation and brightness (percent) added to the fill colour.
    var fillHue, fillSaturation, fillBrightness: LottieAnimated<[Double]>?

    /// Whether it changes the fill colour.
    var changesFill: Bool { fillColor != nil || fillHue != nil || fillSaturation != nil || fillBrightness != nil }
    /// The range selector; nil: every character, fully (an animator without one).
    var selector: LottieTextSelector?

    /// Whether any of its values changes over time.
    var isAnimated: Bool {
        let props = [position, anchor, scale, rotation, opacity, fillColor, strokeColor, strokeWidth, tracking,
                     fillHue, fillSaturation, fillBrightness]
        return props.contains { $0?.isAnimated == true } || selector?.isAnimated == true
    }
}

/// A range selector (`a.s`, type 0) with its unit indices, and the factor it gives each unit.
struct LottieTextSelector {
    var start: LottieAnimated<[Double]> = .fixed([0])
    /// nil: all of the units (100 %, or their count in index units).
    var end: LottieAnimated<[Double]>?
    var offset: LottieAnimated<[Double]> = .fixed([0])
    /// Percent of the property values applied where the factor is 1.
    var amount: LottieAnimated<[Double]> = .fixed([100])
    var easeHigh: LottieAnimated<[Double]> = .fixed([0]), easeLow: LottieAnimated<[Double]> = .fixed([0])
    var smoothness: LottieAnimated<[Double]> = .fixed([100])
    /// `r` 2: start, end and offset are unit indices, not percentages.
    var indexUnits = false
    /// `b`: 1 characters, 2 characters excluding spaces, 3 words, 4 lines.
    var basedOn = 1
    /// `sh`: 1 square, 2 ramp up, 3 ramp down, 4 triangle, 5 round, 6 smooth.
    var shape = 1

    var isAnimated: Bool {
        [start, offset, amount, easeHigh, easeLow, smoothness].contains { $0.isAnimated } || end?.isAnimated == true
    }

    /// The unit index of each character and the number of units. `characters` lists the
    /// document's characters in order with `nil` for each line break (a paragraph's or a wrap's).
    func unitIndices(_ characters: [Character?]) -> (indices: [Int], count: Int) {
        var index = 0
        var out: [Int] = []
        out.reserveCapacity(characters.count)
        for (i, c) in characters.enumerated() {
            out.append(index)
            let last = i == characters.count - 1
            let advances: Bool
            switch basedOn {
            case 2: advances = c != nil && c != " "       // a space takes the next character's index
            case 3: advances = c == nil || c == " " || last   // a space belongs to the word before it
            case 4: advances = c == nil || last
            default: advances = c != nil
            }
            if advances { index += 1 }
        }
        return (out, index)
    }

    /// The selector's values at a Lottie frame, ready to give factors for `count` units.
    func at(_ f: Double, count: Int) -> Evaluated {
        let divisor = indexUnits ? 1 : 100 / Double(max(count, 1))
        let o = offset.value(at: f)[0] / divisor
        var s = start.value(at: f)[0] / divisor + o
        var e = (end.map { $0.value(at: f)[0] } ?? (indexUnits ? Double(count) : 100)) / divisor + o
        if s > e { swap(&s, &e) }
        let high = easeHigh.value(at: f)[0], low = easeLow.value(at: f)[0]
        var easing: CAMediaTimingFunction?
        if high != 0 || low != 0 {
            // Ease low bends the start of the curve, ease high its end: positive along x, negative along y.
            let x1 = low > 0 ? low / 100 : 0, y1 = low > 0 ? 0 : -low / 100
            let x2 = high > 0 ? 1 - high / 100 : 1, y2 = high > 0 ? 1 : 1 + high / 100
            easing = CAMediaTimingFunction(controlPoints: Float(min(max(x1, 0), 1)), Float(y1), Float(min(max(x2, 0), 1)), Float(y2))
        }
        return Evaluated(start: s, end: e, shape: shape, easing: easing,
                         smoothness: smoothness.value(at: f)[0], amount: amount.value(at: f)[0] / 100)
    }

    /// A selector's values at one frame.
    struct Evaluated {
        var start: Double, end: Double
        var shape: Int
        var easing: CAMediaTimingFunction?
        var smoothness: Double
        var amount: Double

        /// The factor of the unit at `index`: how much of the animator's values it gets.
        func factor(_ index: Int) -> Double {
            let ind = Double(index), s = start, e = end
            var m: Double
            // Where a unit's middle (index + ½) lies across the range, 0…1.
            func across() -> Double { max(0, min(0.5 / (e - s) + (ind - s) / (e - s), 1)) }
            switch shape {
            case 2: m = e == s ? (ind >= e ? 1 : 0) : across()
            case 3: m = e == s ? (ind >= e ? 0 : 1) : 1 - across()
            case 4:
                if e == s { m = 0 } else { let a = across(); m = a < 0.5 ? 2 * a : 2 - 2 * a }
            case 5:
                if e == s { m = 0 } else {
                    let half = (e - s) / 2, x = min(max(0, ind + 0.5 - s), e - s) - half
                    m = (max(0, 1 - x * x / (half * half))).squareRoot()
                }
            case 6:
                if e == s { m = 0 } else {
                    let x = min(max(0, ind + 0.5 - s), e - s)
                    m = (1 + cos(.pi + 2 * .pi * x / (e - s))) / 2
                }
            default:
                // Square: 1 inside [start, end), the partly covered units at the ends in proportion.
                m = 0
                if ind >= s.rounded(.down) {
                    m = ind < s ? max(0, min(min(e, 1) - (s - ind), 1)) : max(0, min(e - ind, 1))
                }
            }
            if let easing { m = easing.evaluate(m) }
            if shape == 1, smoothness != 100 {
                // Smoothness (of the square, as in After Effects and ThorVG; lottie-web applies
                // it to every shape) narrows the 0…1 range around ½ and stretches it back.
                let width = max(smoothness / 100, 1e-8), threshold = 0.5 - width / 2
                m = m < threshold ? 0 : min((m - threshold) / width, 1)
            }
            // NaN (from ends of ±1e300) selects nothing; the amount is After Effects' −100…100 %.
            return (m.isFinite ? min(max(m, 0), 1) : 0) * min(max(amount, -1), 1)
        }
    }
}

extension LayerParser {
    /// The animator properties drawn, by key, and where each goes.
    static let animatorProperties: [(String, any WritableKeyPath<LottieTextAnimator, LottieAnimated<[Double]>?> & Sendable)] = [
        ("p", \.position), ("a", \.anchor), ("s", \.scale), ("r", \.rotation), ("o", \.opacity), ("fc", \.fillColor),
        ("sc", \.strokeColor), ("sw", \.strokeWidth), ("fh", \.fillHue), ("fs", \.fillSaturation), ("fb", \.fillBrightness),
        ("t", \.tracking),
    ]
    /// The keys of an animator's properties object that are not reported: those drawn and its names.
    static let animatorPropertyKeys = Set(animatorProperties.map(\.0) + ["nm", "mn"])

    /// Animator properties Strata reads but does not draw, by key.
    static let otherAnimatorProperties = [
        "sk": "skew", "sa": "skew axis", "rx": "x rotation", "ry": "y rotation", "fo": "fill opacity",
        "so": "stroke opacity", "ls": "line spacing", "bl": "blur",
    ]

    /// The text animators of `t.a`, reporting what is not drawn (other properties, other
    /// selector types, randomized order, expressions) with its path.
    mutating func textAnimators(_ list: JSONNode) throws -> [LottieTextAnimator] {
        guard list.isArray else { throw list.error("expected an array of text animators") }
        let items = try list.elements()
        guard items.count <= 1_000 else { throw list.error("\(items.count) text animators, over the limit of 1000") }
        var out: [LottieTextAnimator] = []
        for item in items {
            guard item.isObject else { throw item.error("expected a text animator object") }
            var animator = LottieTextAnimator()
            if let a = try item.optional("a") {
                guard a.isObject else { throw a.error("expected an object of animated properties") }
                func property(_ key: String) throws -> LottieAnimated<[Double]>? {
                    guard let p = try a.optional(key) else { return nil }
                    if let x = try p.optional("x"), (try? x.string()) != nil { notes.add(x.path, "expression (the keyframes are used instead)") }
                    return try p.vectorValue()
                }
                for (key, field) in Self.animatorProperties { animator[keyPath: field] = try property(key) }
                for key in a.keys where !Self.animatorPropertyKeys.contains(key) {
                    let name = Self.otherAnimatorProperties[key].map { " (\($0))" } ?? ""
                    notes.add(a.path + "." + key, "text animator property '\(key)'\(name)")
                }
            }
            if let s = try item.optional("s") {
                guard s.isObject else { throw s.error("expected a text selector object") }
                let type = JSONNode.clampedInt(try s.number("t", default: 0))
                if type != 0 {
                    notes.add(s.path + ".t", "text selector of type \(type) (the animator is not drawn)")
                    continue
                }
                var selector = LottieTextSelector()
                func property(_ key: String) throws -> LottieAnimated<[Double]>? {
                    guard let p = try s.optional(key) else { return nil }
                    if let x = try p.optional("x"), (try? x.string()) != nil { notes.add(x.path, "expression (the keyframes are used instead)") }
                    return try p.vectorValue()
                }
                if let v = try property("s") { selector.start = v }
                selector.end = try property("e")
                if let v = try property("o") { selector.offset = v }
                if let v = try property("a") { selector.amount = v }
                if let v = try property("xe") { selector.easeHigh = v }
                if let v = try property("ne") { selector.easeLow = v }
                if let v = try property("sm") { selector.smoothness = v }
                func code(_ key: String, _ range: ClosedRange<Int>, default d: Int) throws -> Int {
                    guard let n = try s.optional(key) else { return d }
                    let v = JSONNode.clampedInt(try n.number())
                    guard range.contains(v) else { throw n.error("\(v) is not one of \(range.lowerBound)…\(range.upperBound)") }
                    return v
                }
                selector.indexUnits = try code("r", 1...2, default: 1) == 2
                selector.basedOn = try code("b", 1...4, default: 1)
                selector.shape = try code("sh", 1...6, default: 1)
                if try s.bool("rn") { notes.add(s.path + ".rn", "randomized order (characters selected in order)") }
                if let m = try s.optional("m"), m.isNumber, JSONNode.clampedInt(try m.number()) > 1 {
                    notes.add(m.path, "selector mode \(JSONNode.clampedInt(try m.number())) (added)")
                }
                animator.selector = selector
            }
            out.append(animator)
        }
        return out
    }
}

/// Hue, saturation and value (each 0…1) of an RGB colour (0…1), and back: for the fill hue,
/// saturation and brightness animators, which move the fill colour in HSV as After Effects does.
enum LottieHSV {
    static func hsv(_ c: [Double]) -> (h: Double, s: Double, v: Double) {
        let r = c[0], g = c[1], b = c[2]
        let hi = max(r, g, b), lo = min(r, g, b), d = hi - lo
        var h = 0.0
        if d > 0 {
            if hi == r { h = (g - b) / d } else if hi == g { h = (b - r) / d + 2 } else { h = (r - g) / d + 4 }
            h /= 6
            if h < 0 { h += 1 }
        }
        return (h, hi > 0 ? d / hi : 0, hi)
    }

    static func rgb(_ h: Double, _ s: Double, _ v: Double) -> [Double] {
        let sector = h * 6, i = sector.rounded(.down), f = sector - i
        let p = v * (1 - s), q = v * (1 - f * s), t = v * (1 - (1 - f) * s)
        switch Int(i.truncatingRemainder(dividingBy: 6)) {
        case 0: return [v, t, p]
        case 1: return [q, v, p]
        case 2: return [p, v, t]
        case 3: return [p, q, v]
        case 4: return [t, p, v]
        default: return [v, p, q]
        }
    }

    /// `c` with its hue turned by `degrees`, saturation and value moved by the fractions given.
    static func adjusted(_ c: [Double], hue degrees: Double = 0, saturation: Double = 0, value: Double = 0) -> [Double] {
        var (h, s, v) = hsv(c.map { min(max($0, 0), 1) })
        let turned = (h + degrees / 360).truncatingRemainder(dividingBy: 1)
        h = turned.isFinite ? (turned < 0 ? turned + 1 : turned) : h
        s = min(max(s + saturation, 0), 1)
        v = min(max(v + value, 0), 1)
        return rgb(h, s.isFinite ? s : 0, v.isFinite ? v : 0)
    }
}
