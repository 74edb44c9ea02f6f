// What a CATextLayer draws at one moment, frozen into a Sendable value for the renderer: the
// text as styled runs plus the layer's layout settings. Plain strings become one run in the
// layer's font, size and colour; attributed strings keep their own attributes per run (with
// Core Text's defaults where a run has none, as CATextLayer does on iOS). The value is the
// backing-store cache key, together with the layer bounds.
import Foundation

/// Styled text and how to lay it out in a layer's bounds (the content of a `CATextLayer`).
public struct TextContent: Sendable, Hashable {
    /// A stretch of text in one style.
    public struct Run: Sendable, Hashable {
        /// The characters.
        public var text: String
        /// A font name (a family, "Family Style" or a PostScript name), resolved by fontconfig.
        public var fontName: String
        /// The font size in points.
        public var fontSize: CGFloat
        /// The text colour.
        public var color: RGBA
        /// Extra space between characters, in points.
        public var kern: CGFloat
        /// Underline style (empty: none).
        public var underline: NSUnderlineStyle
        /// Strikethrough style (empty: none).
        public var strikethrough: NSUnderlineStyle
        /// Colour of the underline and strikethrough (nil: the text colour).
        public var decorationColor: RGBA?
        /// OpenType features of the font, in Pango's syntax (`"tnum"`: tabular digits; empty:
        /// the font's defaults). From a `UIFont`'s `fontFeatures`.
        public var fontFeatures: String = ""

        /// A run of `text` in one style.
        public init(text: String, fontName: String, fontSize: CGFloat, color: RGBA, kern: CGFloat = 0,
                    underline: NSUnderlineStyle = [], strikethrough: NSUnderlineStyle = [],
                    decorationColor: RGBA? = nil) {
            self.text = text; self.fontName = fontName; self.fontSize = fontSize; self.color = color
            self.kern = kern; self.underline = underline; self.strikethrough = strikethrough
            self.decorationColor = decorationColor
        }
    }

    /// The runs of a text, in order: a collection of `Run` that keeps the first run inline, so
    /// that the content of a plain string (one run) needs no heap storage. A changing
    /// CATextLayer's content is made anew at every snapshot (measured: 20 of the 21 allocations
    /// of a motion frame's snapshot were one-run arrays). The price is size: a run inline makes
    /// every layer snapshot's content larger, and copying snapshots cost 0.17 M more instructions
    /// of a motion frame's 95 M (callgrind, memcpy).
    public struct Runs: RandomAccessCollection, MutableCollection, Hashable, Sendable, ExpressibleByArrayLiteral {
        /// The first run (nil: no runs, and `rest` is empty).
        private var head: Run?
        private var rest: [Run] = []

        /// No runs.
        public init() {}

        /// One run, stored inline.
        public init(_ run: Run) { head = run }

        /// The runs of a sequence, in its order.
        public init(_ runs: some Sequence<Run>) {
            for r in runs { append(r) }
        }

        public init(arrayLiteral runs: Run...) { self.init(runs) }

        public var startIndex: Int { 0 }
        public var endIndex: Int { head == nil ? 0 : 1 + rest.count }

        /// The run at `i`, 0 ..< `endIndex` (a precondition).
        public subscript(i: Int) -> Run {
            get {
                precondition(i >= 0 && i < endIndex, "TextContent.Runs: index \(i) out of range 0..<\(endIndex)")
                return i == 0 ? head! : rest[i - 1]
            }
            set {
                precondition(i >= 0 && i < endIndex, "TextContent.Runs: index \(i) out of range 0..<\(endIndex)")
                if i == 0 { head = newValue } else { rest[i - 1] = newValue }
            }
        }

        /// Adds a run at the end.
        public mutating func append(_ run: Run) {
            if head == nil { head = run } else { rest.append(run) }
        }
    }

    /// The text, in order.
    public var runs: Runs
    /// Whether lines wrap at the bounds width.
    public var isWrapped: Bool
    /// Where text that does not fit is cut.
    public var truncationMode: CATextLayerTruncationMode
    /// How lines are aligned.
    public var alignmentMode: CATextLayerAlignmentMode

    /// Text from styled runs.
    public init(runs: [Run], isWrapped: Bool = false, truncationMode: CATextLayerTruncationMode = .none,
                alignmentMode: CATextLayerAlignmentMode = .natural) {
        self.runs = Runs(runs.lazy.filter { !$0.text.isEmpty })
        self.isWrapped = isWrapped; self.truncationMode = truncationMode; self.alignmentMode = alignmentMode
    }

    /// A plain string in one font, size and colour.
    public init(string: String, fontName: String = "Helvetica", fontSize: CGFloat = 36, color: RGBA = .black,
                isWrapped: Bool = false, truncationMode: CATextLayerTruncationMode = .none,
                alignmentMode: CATextLayerAlignmentMode = .natural, fontFeatures: String = "") {
        // (Not through init(runs:): an array of one run would be a heap allocation.)
        var run = Run(text: string, fontName: fontName, fontSize: fontSize, color: color)
        run.fontFeatures = fontFeatures
        runs = string.isEmpty ? Runs() : Runs(run)
        self.isWrapped = isWrapped; self.truncationMode = truncationMode; self.alignmentMode = alignmentMode
    }

    /// An attributed string, one run per attribute range. Reads `.font` (`UIFont`, or a name
    /// at 12 pt), `.foregroundColor` (`CGColor`), `.kern`, `.underlineStyle`,
    /// `.strikethroughStyle` and `.underlineColor`; runs without a font use Helvetica 12 pt and
    /// runs without a colour are black, as in Core Text.
    public init(attributedString s: NSAttributedString, isWrapped: Bool = false,
                truncationMode: CATextLayerTruncationMode = .none, alignmentMode: CATextLayerAlignmentMode = .natural) {
        var runs: [Run] = []
        let whole = s.string as NSString
        s.enumerateAttributes(in: NSRange(location: 0, length: s.length)) { attrs, range, _ in
            let text = whole.substring(with: range)
            var run = Run(text: text, fontName: "Helvetica", fontSize: 12, color: .black)
            switch attrs[.font] {
            case let f as UIFont: run.fontName = f.fontName; run.fontSize = f.pointSize; run.fontFeatures = f.fontFeatures.joined(separator: ",")
            case let name as String: run.fontName = name
            default: break
            }
            if let c = attrs[.foregroundColor] as? CGColor, let rgba = RGBA(c) { run.color = rgba }
            if let k = attrs[.kern].flatMap({ AnimatableValue.asNumber($0) }), k.isFinite { run.kern = k }
            run.underline = TextContent.style(attrs[.underlineStyle])
            run.strikethrough = TextContent.style(attrs[.strikethroughStyle])
            if let c = attrs[.underlineColor] as? CGColor { run.decorationColor = RGBA(c) }
            runs.append(run)
        }
        self.init(runs: runs, isWrapped: isWrapped, truncationMode: truncationMode, alignmentMode: alignmentMode)
    }

    private static func style(_ v: Any?) -> NSUnderlineStyle {
        switch v {
        case let s as NSUnderlineStyle: s
        case let n?: AnimatableValue.asNumber(n).map { NSUnderlineStyle(rawValue: Int($0)) } ?? []
        default: []
        }
    }

    /// All the characters, runs joined.
    public var string: String { runs.map(\.text).joined() }
}
