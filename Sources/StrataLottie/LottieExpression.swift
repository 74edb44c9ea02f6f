// The loops Core Animation can repeat by itself: After Effects' `loopOut(type)` over all the
// keyframes (cycle, pingpong, offset) and `loopIn('cycle')`, alone (optionally as Bodymovin's
// `var $bm_rt; $bm_rt = …;`). They become repeats (`repeatCount`, `autoreverses`,
// `isCumulative`) of the property's keyframes, on any property, shape paths included. Every
// other expression goes to the evaluator (LottieScript, evaluated per frame), which also
// evaluates these loops by their definition where another expression reads the property.
import Foundation

struct LottieLoop: Equatable {
    enum Kind: String { case cycle, pingpong, offset }
    /// loopOut: after the last keyframe; loopIn: before the first.
    var after: Bool
    var kind: Kind

    /// Recognises a loop expression; nil for anything else.
    static func parse(_ source: String) -> LottieLoop? {
        // Strip Bodymovin's wrapper and whitespace, then expect exactly one call.
        var text = source.replacingOccurrences(of: "var $bm_rt;", with: "")
        text = text.replacingOccurrences(of: "$bm_rt", with: "")
        text = text.filter { !$0.isWhitespace }
        if text.hasPrefix("=") { text.removeFirst() }
        while text.hasSuffix(";") { text.removeLast() }
        let after: Bool
        if text.hasPrefix("loopOut(") { after = true } else if text.hasPrefix("loopIn(") { after = false } else { return nil }
        guard text.hasSuffix(")"), let open = text.firstIndex(of: "(") else { return nil }
        let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
        let arguments = inner.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard arguments.count <= 2 else { return nil }
        var kind = Kind.cycle
        if let first = arguments.first, !first.isEmpty {
            let name = first.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            guard first.count == name.count + 2, let k = Kind(rawValue: name) else { return nil }
            kind = k
        }
        // A keyframe count other than 0 (all) loops only the last few: not handled.
        if arguments.count == 2 && arguments[1] != "0" { return nil }
        return LottieLoop(after: after, kind: kind)
    }

    /// The frame of the keyframes' span [first, last] that `frame` shows, and how many whole
    /// spans it lies beyond (negative before the first keyframe).
    func map(_ frame: Double, first: Double, last: Double) -> (Double, Int) {
        let span = last - first
        guard span > 0 else { return (frame, 0) }
        if after ? frame <= last : frame >= first { return (frame, 0) }
        let cycles = min(max(((frame - first) / span).rounded(.down), -1e9), 1e9)
        var local = frame - first - cycles * span
        if kind == .pingpong, Int(cycles) % 2 != 0 { local = span - local }
        return (first + local, Int(cycles))
    }
}
