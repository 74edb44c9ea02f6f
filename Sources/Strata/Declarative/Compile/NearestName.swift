// "Did you mean …?" for misspelt names: the known name nearest to an unknown one by edit
// distance (insertions, deletions, substitutions and swaps of neighbours, ignoring case), offered
// only when it is near enough to be a slip of the keyboard rather than another word.
import Foundation

enum NearestName {
    /// The name in `known` nearest to `name`, if it is within a typo's distance: at most 1 edit
    /// for names up to 4 characters, 2 up to 8, 3 beyond. Ties go to the first in sorted order.
    static func suggestion(for name: String, among known: some Sequence<String>) -> String? {
        let target = Array(name.lowercased())
        let allowed = target.count <= 4 ? 1 : target.count <= 8 ? 2 : 3
        var best: (name: String, distance: Int)?
        for candidate in known.sorted() where candidate != name {
            let d = distance(target, Array(candidate.lowercased()))
            if d <= allowed, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// The middle of `unknown key "fontsize"; did you mean "fontSize"? (known: …)`: `; did you
    /// mean "x"? ` when a known name is near, else a space.
    static func didYouMean(_ name: String, among known: some Sequence<String>) -> String {
        suggestion(for: name, among: known).map { "; did you mean \"\($0)\"? " } ?? " "
    }

    /// The optimal-string-alignment distance between `a` and `b` (Levenshtein with swaps of
    /// neighbouring characters counted as one edit).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
                current[j] = d
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
