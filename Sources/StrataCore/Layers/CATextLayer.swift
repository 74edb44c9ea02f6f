// A layer that draws a string: plain (in the layer's font, size and colour) or attributed (per
// run). The model side only; StrataRender lays the text out with Pango (HarfBuzz shaping,
// fontconfig fallback for scripts the font lacks) and rasterises it at the on-screen scale.
import Foundation

/// A layer that lays out and draws plain or attributed text in its bounds (Apple's `CATextLayer`).
///
/// Text starts at the top of the bounds and is clipped to them. A plain `String` is drawn in
/// `font` at `fontSize` in `foregroundColor`; an `NSAttributedString` uses its own attributes
/// (`.font`, `.foregroundColor`, `.kern`, `.underlineStyle`, …) and ignores those three, as on
/// iOS. Animatable (and implicitly animated inside `scene.at`): `fontSize`, `foregroundColor`.
///
/// ```swift
/// let label = CATextLayer()
/// label.frame = CGRect(x: 20, y: 20, width: 300, height: 120)
/// label.string = "Hello, Strata"
/// label.font = "DejaVu Sans Bold"
/// label.fontSize = 28
/// label.alignmentMode = .center
/// label.isWrapped = true
/// ```
///
/// **Strata:** `contentsScale` does not limit sharpness: the text is rasterised at the scale it
/// is shown at (the scene's `contentsScale` times any zoom), so it never looks blurry.
/// Layout uses unhinted metrics, so line breaks do not change with that scale.
open class CATextLayer: CALayer {
    // Stored properties read by every snapshot are `@exclusivity(unchecked)`, as CALayer's (see there).
    /// The animatable text properties.
    ///
    /// **Strata:** `string` is animatable too, discretely (a `CAKeyframeAnimation` with
    /// `calculationMode = .discrete` whose values are strings, or a `CABasicAnimation` that
    /// switches half-way). Apple's `string` is not animatable: there, changing text over time takes
    /// a timer or one layer per text. Counters and text reveals of the DSL and templates compile
    /// to such a keyframe animation, one key per frame where the text changes. A change of
    /// `string` is never animated implicitly, as on iOS.
    public static let textProperties = AnimatableProperties<CATextLayer>([
        .number("fontSize", \.fontSize), .color("foregroundColor", \.foregroundColor),
        AnimatableProperty("string", .discrete, implicit: false, get: { .discrete(DiscreteBox($0.string ?? "")) }) { layer, value in
            guard case .discrete(let box) = value else { return false }
            layer.string = box.value
            return true
        },
    ])

    /// The text: a `String` or an `NSAttributedString` (default nil; anything else draws nothing).
    @exclusivity(unchecked) public var string: Any? { didSet { journal(self, \.string, oldValue) } }

    /// The font of a plain string: a font name `String` (a family such as `"DejaVu Sans"`,
    /// `"Family Style"` such as `"DejaVu Sans Bold"`, or a PostScript name such as
    /// `"Helvetica-Bold"`) or a `UIFont`, whose size is ignored in favour of `fontSize`, as on
    /// iOS. Default `"Helvetica"` (drawn with the sans-serif face when not installed).
    @exclusivity(unchecked) public var font: Any? = "Helvetica" { didSet { journal(self, \.font, oldValue) } }

    /// The largest font size drawn, in points (larger sizes, say from an animation to 1e300,
    /// are drawn at this size; templates refuse them). Pango's own limit is about 2 million.
    public static let maximumFontSize: CGFloat = 10_000

    /// The size of a plain string's font, in points (default 36). Animatable.
    @exclusivity(unchecked) public var fontSize: CGFloat = 36 { didSet { journal(self, \.fontSize, oldValue); didChange("fontSize", oldValue: .number(oldValue)) } }

    /// The colour of a plain string (default opaque white). Animatable.
    @exclusivity(unchecked) public var foregroundColor: CGColor? = .white {
        didSet { journal(self, \.foregroundColor, oldValue); didChange("foregroundColor", oldValue: .color(oldValue)) }
    }

    /// Whether lines wrap at the bounds width (default false: one line per paragraph).
    @exclusivity(unchecked) public var isWrapped = false { didSet { journal(self, \.isWrapped, oldValue) } }

    /// How text that does not fit is truncated (default `.none`: clipped at the bounds).
    @exclusivity(unchecked) public var truncationMode: CATextLayerTruncationMode = .none { didSet { journal(self, \.truncationMode, oldValue) } }

    /// How lines are aligned in the bounds (default `.natural`).
    @exclusivity(unchecked) public var alignmentMode: CATextLayerAlignmentMode = .natural { didSet { journal(self, \.alignmentMode, oldValue) } }

    /// A text layer with Core Animation's defaults.
    public override init() { super.init() }

    /// **Strata:** no archives: a layer with default values.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A copy of `layer`'s properties (used for presentation copies).
    public override init(layer: Any) {
        super.init(layer: layer)
        guard let l = layer as? CATextLayer else { return }
        string = l.string; font = l.font; fontSize = l.fontSize; foregroundColor = l.foregroundColor
        isWrapped = l.isWrapped; truncationMode = l.truncationMode; alignmentMode = l.alignmentMode
    }

    /// The name of the font a plain string is drawn in.
    public var fontName: String {
        // A String first: casting one to a class (UIFont, CGFont) bridges it to an NSString, an
        // allocation per cast, and every snapshot asks.
        switch font {
        case let s as String: s
        case let f as UIFont: f.fontName
        case let f as CGFont: (f.postScriptName as String?) ?? "Helvetica"
        case let s as NSString: s as String
        default: "Helvetica"
        }
    }

    /// The text as the renderer sees it (nil when `string` is neither a String nor an
    /// NSAttributedString, or is empty).
    public var textContent: TextContent? { textContent(of: string) }

    /// `textContent` with `string` as the text (a presentation's animated string).
    func textContent(of string: Any?) -> TextContent? {
        let content: TextContent
        // (A String first, as in `fontName`.)
        switch string {
        case let s as String:
            content = plain(s)
        case let a as NSAttributedString:
            content = TextContent(attributedString: a, isWrapped: isWrapped, truncationMode: truncationMode,
                                  alignmentMode: alignmentMode)
        case let s as NSString:
            content = plain(s as String)
        default:
            return nil
        }
        return content.runs.isEmpty ? nil : content
    }

    private func plain(_ s: String) -> TextContent {
        TextContent(string: s, fontName: fontName, fontSize: fontSize, color: RGBA(foregroundColor) ?? .clear,
                    isWrapped: isWrapped, truncationMode: truncationMode, alignmentMode: alignmentMode,
                    fontFeatures: (font as? UIFont)?.fontFeatures.joined(separator: ",") ?? "")
    }

    // MARK: Animatable keys

    /// The text keys and CALayer's.
    open override func animatableKind(forKey key: String) -> AnimatableValue.Kind? {
        CATextLayer.textProperties[key]?.kind ?? super.animatableKind(forKey: key)
    }

    /// The current value of a text key, or CALayer's.
    open override func animatableValue(forKey key: String) -> AnimatableValue? {
        CATextLayer.textProperties.value(forKey: key, of: self) ?? super.animatableValue(forKey: key)
    }

    /// Sets a text key (or CALayer's) without triggering actions.
    open override func setAnimatableValue(_ value: AnimatableValue, forKey key: String) {
        withActionsSuppressed {
            if !CATextLayer.textProperties.set(value, forKey: key, of: self) { super.setAnimatableValue(value, forKey: key) }
        }
    }

    /// The animatable text keys animate implicitly, as on iOS.
    open override class func implicitlyAnimates(key: String) -> Bool {
        textProperties[key]?.implicitlyAnimates == true || super.implicitlyAnimates(key: key)
    }

    /// Core Animation's defaults for the text keys.
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "font": "Helvetica"
        case "fontSize": CGFloat(36)
        case "foregroundColor": CGColor.white
        case "wrapped": false
        case "truncationMode": CATextLayerTruncationMode.none
        case "alignmentMode": CATextLayerAlignmentMode.natural
        default: super.defaultValue(forKey: key)
        }
    }

    // MARK: Rendering

    /// The text as the renderer sees it (`.none` when there is none). A text over the limits
    /// (`SnapshotLimits.textScalars`, `characterScalars`) is recorded as an issue and not drawn,
    /// whatever the bounds: a text too long to lay out measures as nothing, and a layer sized to
    /// it was drawn blank without a word.
    open override func snapshotContent() -> LayerContent { snapshotContent(string: string) }

    /// The content with `string` as the text (a presentation's animated string).
    func snapshotContent(string: Any?) -> LayerContent {
        guard let content = textContent(of: string) else { return super.snapshotContent() }
        let limits = SnapshotReport.limitsInForce
        if let problem = TextCost.problem(of: content.cost(scalarLimit: limits.textScalars),
                                          scalarLimit: limits.textScalars, characterLimit: limits.characterScalars) {
            SnapshotReport.record(SnapshotIssue(what: "\(SnapshotReport.describe(self)): \(problem.what)", limit: problem.limit,
                                                limitName: problem.name))
            return super.snapshotContent()
        }
        guard bounds.width > 0, bounds.height > 0 else { return super.snapshotContent() }
        return .text(content)
    }
}
