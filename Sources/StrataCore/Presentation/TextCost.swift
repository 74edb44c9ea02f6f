// What a text costs to shape and draw, and whether it is within the limits: laying text out costs
// per Unicode scalar, not per visible character, so limits on text count scalars, and bound how
// many scalars one character (grapheme cluster: a letter and its accents, an emoji sequence) may
// hold. `"a"` followed by 100 000 combining accents is one character: it passed a template's
// `maxLength: 60`, took 32 s to validate and 88 s to draw a frame.
import Foundation

/// The Unicode scalars of a text and of its longest character.
public struct TextCost: Sendable, Equatable {
    /// Unicode scalars in the text.
    public var scalars = 0
    /// Unicode scalars in its longest character (grapheme cluster).
    public var longestCharacter = 0

    /// No cost: zero scalars.
    public init() {}

    /// The cost of `text`. Counting stops early (with `scalars` past the limit) once the text
    /// has more than `scalarLimit` scalars: the rest need not be looked at to refuse it.
    public init(_ text: String, scalarLimit: Int = .max) {
        add(text, scalarLimit: scalarLimit)
    }

    /// Adds the cost of `text` (the next run of a text).
    public mutating func add(_ text: String, scalarLimit: Int = .max) {
        var ascii = true
        for byte in text.utf8 where byte >= 0x80 { ascii = false; break }
        if ascii {
            // One scalar a byte; a character is one byte, or two for CR LF.
            let n = text.utf8.count
            scalars += n
            longestCharacter = max(longestCharacter, n == 0 ? 0 : text.utf8.contains(13) ? 2 : 1)
            return
        }
        for character in text {
            let n = character.unicodeScalars.count
            scalars += n
            longestCharacter = max(longestCharacter, n)
            if scalars > scalarLimit { return }
        }
    }

    /// The limit `text` goes over, if any: a description of what went over, the limit and its
    /// name for `--limit NAME=N` ("text-length", "character-scalars").
    public static func problem(of text: TextCost, scalarLimit: Int, characterLimit: Int) -> (what: String, limit: Int, name: String)? {
        if text.scalars > scalarLimit {
            return ("a text of more than \(scalarLimit) characters (Unicode scalars: an accent counts as one)", scalarLimit, "text-length")
        }
        if text.longestCharacter > characterLimit {
            return ("a text with a character of \(text.longestCharacter) Unicode scalars (a letter with \(text.longestCharacter - 1) accents or joined marks)",
                    characterLimit, "character-scalars")
        }
        return nil
    }
}

extension TextContent {
    /// The cost of every run's text, counting stops past `scalarLimit`.
    public func cost(scalarLimit: Int = .max) -> TextCost {
        var cost = TextCost()
        for run in runs {
            cost.add(run.text, scalarLimit: scalarLimit)
            if cost.scalars > scalarLimit { break }
        }
        return cost
    }
}
