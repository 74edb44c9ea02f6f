// How a text layer reveals its text as its `revealed` fraction (0…1) animates: a typewriter (a
// character at a time), a word or a line at a time, or a scramble that decodes from random
// characters. The text shown at a fraction p is a pure function of the text, p and the seed, so
// any frame can be made alone, in any order, on any worker.
//
// JSON/YAML: "reveal": "words", or {"by": "scramble", "seed": 7, "characters": "01"}.
import Foundation

/// How a text is revealed as its `revealed` fraction goes from 0 to 1.
///
/// With n units (characters, words or lines), the first ⌊p·n⌋ are shown at fraction p.
public struct TextReveal: Hashable, Sendable {
    /// The unit revealed at a time.
    public enum Unit: String, Hashable, Sendable, CaseIterable {
        /// One character (grapheme) at a time: a typewriter.
        case characters
        /// One word at a time (a word and the spaces before it).
        case words
        /// One line at a time (lines end at "\n").
        case lines
        /// Every character appears at once as a random one from `characters` (at any p > 0),
        /// and they settle to the text's own from the left, ⌊p·n⌋ at fraction p. Spaces stay
        /// spaces. The random characters change as p does, about three times per settled
        /// character, chosen by `seed`.
        case scramble
    }

    /// The unit revealed at a time.
    public var unit: Unit
    /// The seed of a scramble's random characters.
    public var seed: Int
    /// The characters a scramble picks from.
    public var characters: String

    /// The characters a scramble picks from by default.
    public static let defaultScrambleCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789#%&*+=?"

    /// A reveal by `unit` (a scramble with its `seed` and `characters`).
    public init(_ unit: Unit, seed: Int = 0, characters: String = TextReveal.defaultScrambleCharacters) {
        self.unit = unit; self.seed = seed; self.characters = characters
    }

    /// A text split into what a reveal counts (characters, or words or lines), once.
    struct Units {
        let text: String
        let characters: [Character]
        let parts: [String]
    }

    /// `text` split into this reveal's units.
    func units(of text: String) -> Units {
        switch unit {
        case .characters, .scramble: Units(text: text, characters: Array(text), parts: [])
        case .words: Units(text: text, characters: [], parts: Self.words(text))
        case .lines: Units(text: text, characters: [], parts: Self.lines(text))
        }
    }

    /// The text shown of `text` at fraction `p` (clamped to 0…1).
    public func text(_ text: String, at p: Double) -> String {
        self.text(units(of: text), at: p)
    }

    /// The text shown of a split text at fraction `p` (clamped to 0…1).
    func text(_ units: Units, at p: Double) -> String {
        let p = p.isNaN ? 0 : min(max(p, 0), 1)
        let text = units.text
        switch unit {
        case .characters:
            let chars = units.characters
            return String(chars.prefix(Self.shown(p, of: chars.count)))
        case .words, .lines:
            let parts = units.parts
            return parts.prefix(Self.shown(p, of: parts.count)).joined()
        case .scramble:
            let chars = units.characters
            guard p > 0 else { return "" }
            let settled = Self.shown(p, of: chars.count)
            guard settled < chars.count else { return text }
            let pool = Array(characters.isEmpty ? TextReveal.defaultScrambleCharacters : characters)
            // Changes three times per settled character: the step is part of the hash.
            let step = UInt64(max(0, (p * Double(chars.count) * 3).rounded(.down)))
            var out = String(chars.prefix(settled))
            for i in settled..<chars.count {
                let c = chars[i]
                if c.isWhitespace { out.append(c); continue }
                let h = Self.mix(UInt64(bitPattern: Int64(seed)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(i) &* 0xBF58_476D_1CE4_E5B9 ^ step &* 0x94D0_49BB_1331_11EB)
                out.append(pool[Int(h % UInt64(pool.count))])
            }
            return out
        }
    }

    /// How many of `n` units show at fraction p.
    static func shown(_ p: Double, of n: Int) -> Int {
        min(n, max(0, Int((p * Double(n) + 1e-9).rounded(.down))))
    }

    /// The words of `text`, each with the spaces before it (so their concatenation is the text).
    static func words(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var inWord = false
        for c in text {
            if c.isWhitespace {
                if inWord { parts.append(current); current = ""; inWord = false }
                current.append(c)
            } else {
                inWord = true
                current.append(c)
            }
        }
        if !current.isEmpty {
            if inWord || parts.isEmpty { parts.append(current) } else { parts[parts.count - 1] += current }
        }
        return parts
    }

    /// The lines of `text`, each but the first with the "\n" before it.
    static func lines(_ text: String) -> [String] {
        let raw = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return raw.enumerated().map { $0.offset == 0 ? $0.element : "\n" + $0.element }
    }

    /// SplitMix64's finaliser.
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension TextReveal: PropertyValueConvertible {
    /// The model's form: the unit's name, or an object for a scramble's seed and characters.
    public var propertyValue: PropertyValue {
        if seed == 0, characters == TextReveal.defaultScrambleCharacters { return .string(unit.rawValue) }
        return .object(["by": .string(unit.rawValue), "seed": .number(Double(seed)), "characters": .string(characters)])
    }

    static let keys = ["by", "seed", "characters"]

    /// Reads the model's form; throws the problem with the key it is at.
    init(_ value: PropertyValue) throws(FormatProblem) {
        let units = NumberFormat.quoted(Unit.allCases.map(\.rawValue))
        switch value {
        case .string(let s):
            guard let u = Unit(rawValue: s) else { throw FormatProblem(key: nil, message: "expected one of \(units), got \(value)") }
            self.init(u)
        case .object(let o):
            for key in o.keys.sorted() where !Self.keys.contains(key) {
                throw FormatProblem(key: key, message: "unknown reveal key\(NearestName.didYouMean(key, among: Self.keys))(known: \(Self.keys.joined(separator: ", ")))")
            }
            guard let by = o["by"] else { throw FormatProblem(key: "by", message: "a reveal object needs \"by\": one of \(units)") }
            guard let s = by.string, let u = Unit(rawValue: s) else { throw FormatProblem(key: "by", message: "expected one of \(units), got \(by)") }
            self.init(u)
            if let v = o["seed"] {
                guard let n = v.number, n == n.rounded(), abs(n) < 9e15 else { throw FormatProblem(key: "seed", message: "expected a whole number, got \(v)") }
                seed = Int(n)
            }
            if let v = o["characters"] {
                guard let s = v.string, !s.isEmpty, s.count <= 1000, s.allSatisfy({ $0.unicodeScalars.count <= 8 }) else {
                    throw FormatProblem(key: "characters", message: "expected a string of 1 to 1000 characters (each of at most 8 Unicode scalars), got \(v)")
                }
                characters = s
            }
        default:
            throw FormatProblem(key: nil, message: "expected one of \(units) or {\"by\": …, \"seed\": …, \"characters\": …}, got \(value)")
        }
    }
}
