// The parsed Lottie document: compositions of layers, each layer's transform, masks, matte and
// content (shapes, a solid, an image, a precomposition). Parsing checks types and limits and
// notes, with its JSON path, every feature Strata reads but does not render (`unsupported`).
import Foundation
import Strata

/// A feature of the file that Strata does not render, and where it is.
public struct LottieUnsupported: Equatable, Sendable, CustomStringConvertible {
    /// JSON path of the value (`layers[2].ef`).
    public let path: String
    /// What it is ("effects", "expression", "luma matte").
    public let feature: String
    public var description: String { "\(path): \(feature)" }
}

/// A marker: a named frame range of the animation (`--segment NAME`).
public struct LottieMarker: Equatable, Sendable {
    /// The marker's name (its comment in After Effects).
    public let name: String
    /// The frame it starts at.
    public let frame: Double
    /// Its length in frames.
    public let duration: Double
}

struct LottieTransform {
    var anchor: LottieAnimated<[Double]>?
    var position: LottieAnimated<[Double]>?
    var positionX: LottieAnimated<[Double]>?
    var positionY: LottieAnimated<[Double]>?
    var scale: LottieAnimated<[Double]>?
    var rotation: LottieAnimated<[Double]>?
    var opacity: LottieAnimated<[Double]>?
    var skew: LottieAnimated<[Double]>?
    var skewAxis: LottieAnimated<[Double]>?
    /// A 3D layer's rotations about its x and y axes, in degrees (`rx`, `ry`; `rz` is `rotation`).
    var rotationX: LottieAnimated<[Double]>?
    var rotationY: LottieAnimated<[Double]>?
    /// A separated position's z (`p.z`); a combined position's z is its third component.
    var positionZ: LottieAnimated<[Double]>?
    /// A 3D layer's orientation (`or`): x, y and z degrees, applied after `rx`, `ry`, `rz`.
    var orientation: LottieAnimated<[Double]>?
    /// The layer is a 3D layer (`ddd`): a camera, when its composition has one, sees it.
    var is3D = false
    /// A layer's auto-orient (`ao`): turned to face along its motion path.
    var autoOrient = false
}

struct LottieMask {
    enum Mode: String { case add = "a", subtract = "s", intersect = "i", none = "n", lighten = "l", darken = "d", difference = "f" }
    var path: String
    var mode: Mode
    var inverted: Bool
    var shape: LottieAnimated<LottieBezier>
    var opacity: LottieAnimated<[Double]>?
    /// Expansion (`x`): the path offset outwards (negative: inwards) by this many points.
    var expansion: LottieAnimated<[Double]>? = nil
    /// Feather (`f`, pixels, x and y): the edge softened over this width (LottieCompiler+MaskFeather.swift).
    var feather: LottieAnimated<[Double]>? = nil
}

struct LottieGradient {
    var type: Int                      // 1 linear, 2 radial
    var colorCount: Int
    var colors: LottieAnimated<[Double]>
    var start: LottieAnimated<[Double]>
    var end: LottieAnimated<[Double]>
    var opacity: LottieAnimated<[Double]>?
    /// A radial gradient's highlight length (`h`, percent of the radius, −100…100) and angle
    /// (`a`, degrees from the start→end direction): the focal point's offset from the centre.
    var highlightLength: LottieAnimated<[Double]>? = nil
    var highlightAngle: LottieAnimated<[Double]>? = nil
}

struct LottieRepeater {
    var copies: LottieAnimated<[Double]>
    var offset: LottieAnimated<[Double]>?
    var transform: LottieTransform
    var startOpacity: LottieAnimated<[Double]>?
    var endOpacity: LottieAnimated<[Double]>?
}

indirect enum LottieShapeItem {
    case group(items: [LottieShapeItem], transform: LottieTransform?)
    case rectangle(position: LottieAnimated<[Double]>, size: LottieAnimated<[Double]>, roundness: LottieAnimated<[Double]>?, reversed: Bool)
    case ellipse(position: LottieAnimated<[Double]>, size: LottieAnimated<[Double]>, reversed: Bool)
    case path(LottieAnimated<LottieBezier>, reversed: Bool)
    case polystar(star: Bool, position: LottieAnimated<[Double]>, points: LottieAnimated<[Double]>, outerRadius: LottieAnimated<[Double]>,
                  innerRadius: LottieAnimated<[Double]>?, outerRoundness: LottieAnimated<[Double]>?, innerRoundness: LottieAnimated<[Double]>?,
                  rotation: LottieAnimated<[Double]>?, reversed: Bool)
    case fill(color: LottieAnimated<[Double]>, opacity: LottieAnimated<[Double]>?, evenOdd: Bool)
    case stroke(color: LottieAnimated<[Double]>, opacity: LottieAnimated<[Double]>?, width: LottieAnimated<[Double]>,
                cap: Int, join: Int, miterLimit: Double, dashes: [(kind: String, value: LottieAnimated<[Double]>)])
    case gradientFill(LottieGradient, evenOdd: Bool)
    case gradientStroke(LottieGradient, width: LottieAnimated<[Double]>, cap: Int, join: Int, miterLimit: Double)
    case repeater(LottieRepeater)
    /// Merge paths (`mm`): the paths above combined into one (LottiePathBoolean.swift).
    case merge(LottieMergeMode)
    /// Trim paths, rounded corners, pucker/bloat, zig-zag, offset path: they change the paths above.
    case modifier(LottiePathModifier)
    case transform(LottieTransform)
    case ignored
}

struct LottieLayerModel {
    enum Content {
        case shapes([LottieShapeItem])
        case solid(color: CGColor, width: Double, height: Double)
        case image(assetID: String)
        case precomp(assetID: String, width: Double, height: Double, timeRemap: LottieAnimated<[Double]>?)
        case text(LottieText)
        /// A camera (`ty` 13), its zoom `pe`: nothing drawn, the 3D layers beside it are seen through it.
        case camera(perspective: LottieAnimated<[Double]>)
        case null
        case unsupported
    }
    var path: String
    var name: String
    var index: Int?
    var parent: Int?
    var inPoint: Double
    var outPoint: Double
    var startTime: Double
    var stretch: Double
    var hidden: Bool
    var transform: LottieTransform
    var masks: [LottieMask]
    /// 1 alpha, 2 alpha inverted, 3 luma, 4 luma inverted (on the matted layer).
    var matteMode: Int?
    /// This layer is a matte source (`td`), not drawn itself.
    var isMatteSource: Bool
    /// The index of the matte layer (`tp`, newer files); nil: the layer above.
    var matteParent: Int?
    /// The layer's blend mode (`bm`) as the Core Image filter name its CALayer's
    /// `compositingFilter` takes; nil for normal (and the modes not drawn, which are noted).
    var compositingFilter: String?
    var content: Content
    /// The effects whose values expressions read, in order: expression controls and pseudo
    /// effects, and the effects Strata draws (each also in `drawnEffects`).
    var effects: [LottieEffectControl] = []
    /// The effects Strata draws (Fill, Tint, Tritone, Drop Shadow, Gaussian Blur, Stroke,
    /// Transform, Gradient Ramp), in order.
    var drawnEffects: [LottieDrawnEffect] = []

    /// Lottie's blend modes (`bm`, lottie-spec's numbering, as lottie-web's `blendModes.js`)
    /// that Strata draws, by the compositing filter that draws them.
    static let compositingFilters: [Int: String] = [
        1: "multiplyBlendMode", 2: "screenBlendMode", 3: "overlayBlendMode", 4: "darkenBlendMode", 5: "lightenBlendMode",
        6: "colorDodgeBlendMode", 7: "colorBurnBlendMode", 8: "hardLightBlendMode", 9: "softLightBlendMode",
        10: "differenceBlendMode", 11: "exclusionBlendMode", 12: "hueBlendMode", 13: "saturationBlendMode",
        14: "colorBlendMode", 15: "luminosityBlendMode", 16: "linearDodgeBlendMode", 17: hardMix,
    ]
    /// Hard mix (17) has no Core Image filter name: its layer's `compositingFilter` is set to a
    /// `LayerBlendModeFilter` instead (LottieCompiler+Layers).
    static let hardMix = "hardMix"
}

/// An expression-control effect (`ef`): named values that draw nothing and that expressions
/// read with `effect("Slider Control")("Slider")`: After Effects' expression controls, and the
/// pseudo effects of presets and rigs (`Pseudo/…`, Adobe's own `ADBE CM …`/`ADBE DE …`).
struct LottieEffectControl {
    struct Value {
        var name: String
        /// Its match name (`ADBE Slider Control-0001`), which expressions may use instead of its name.
        var matchName: String
        /// Its place in the effect's list, from 1 (group markers count, as in After Effects).
        var index: Int
        /// The JSON path of the value's property (`…ef[0].ef[0].v`).
        var path: String
        var value: LottieAnimated<[Double]>
        /// A layer parameter (`ty` 10): its value is a layer's index, and an expression reading it gets that layer.
        var isLayer: Bool
    }
    var name: String
    var matchName: String
    /// The JSON path of the effect (`…ef[1]`).
    var path: String
    /// Its place among all the layer's effects, from 1 (what `effect(2)` names).
    var index: Int
    var values: [Value]

    /// After Effects' expression controls, by match name.
    static let matchNames: Set<String> = ["ADBE Slider Control", "ADBE Angle Control", "ADBE Color Control", "ADBE Point Control",
                                          "ADBE Point3D Control", "ADBE Checkbox Control", "ADBE Dropdown Control",
                                          "ADBE Layer Control"]
    /// Match-name prefixes of pseudo effects: effects defined by a preset or rig (`Pseudo/…`) or by
    /// After Effects' own presets (`ADBE CM …`, "Wiggle - position" and the like; `ADBE DE …`,
    /// the behaviour presets), which hold values for the preset's expressions and draw nothing.
    static let pseudoPrefixes = ["Pseudo/", "ADBE CM ", "ADBE DE "]

    /// Whether an effect of this match name only holds values.
    static func isControl(matchName: String) -> Bool {
        matchNames.contains(matchName) || pseudoPrefixes.contains { matchName.hasPrefix($0) }
    }
}

/// An expression control as `LottieAnimation.expressionControls` lists it: a layer effect that
/// draws nothing in After Effects and holds values that expressions read.
public struct LottieExpressionControl: Equatable, Sendable, CustomStringConvertible {
    /// JSON path of the effect (`layers[2].ef[0]`).
    public let path: String
    /// Its name (`nm`, "Slider Control").
    public let name: String
    /// After Effects' id of the effect (`mn`, "ADBE Slider Control", "Pseudo/…"; empty when the file has none).
    public let matchName: String
    public var description: String { "\(path): '\(name)'" + (matchName.isEmpty ? "" : " (\(matchName))") }
}

/// A layer effect Strata draws (LottieCompiler+Effects.swift): its kind (`ty`) and its
/// parameters by their place in its `ef` list, as After Effects exports them (lottie-web and
/// ThorVG read them by place too).
struct LottieDrawnEffect {
    enum Kind {
        case tint, fill, stroke, tritone, dropShadow, gaussianBlur
        /// After Effects' Transform effect (match name `ADBE Geometry2`), which Bodymovin
        /// writes as a custom effect (5) and lottie-web also reads as type 35.
        case transform
        /// After Effects' Gradient Ramp (match name `ADBE Ramp`, a custom effect, 5).
        case gradientRamp

        /// The kind of an effect by its type (`ty`) and match name (`mn`); nil for one not drawn.
        init?(type: Int, matchName: String) {
            switch (type, matchName) {
            case (_, "ADBE Geometry2"), (35, _): self = .transform
            case (_, "ADBE Ramp"): self = .gradientRamp
            case (20, _): self = .tint
            case (21, _): self = .fill
            case (22, _): self = .stroke
            case (23, _): self = .tritone
            case (25, _): self = .dropShadow
            case (29, _): self = .gaussianBlur
            default: return nil
            }
        }

        /// After Effects' name of the effect.
        var name: String {
            switch self {
            case .tint: "Tint"
            case .fill: "Fill"
            case .stroke: "Stroke"
            case .tritone: "Tritone"
            case .dropShadow: "Drop Shadow"
            case .gaussianBlur: "Gaussian Blur"
            case .transform: "Transform"
            case .gradientRamp: "Gradient Ramp"
            }
        }

        /// The places of the parameters drawn, and how many numbers each needs (3: a colour).
        var parameters: [(index: Int, count: Int)] {
            switch self {
            case .tint: [(0, 3), (1, 3), (2, 1)]                      // map black to, map white to, amount (%)
            case .fill: [(2, 3), (6, 1)]                              // colour, opacity (0…1)
            // path (mask number), all masks, colour, brush size, opacity (0…1), start, end (%), paint style
            case .stroke: [(0, 1), (1, 1), (3, 3), (4, 1), (6, 1), (7, 1), (8, 1), (10, 1)]
            case .tritone: [(0, 3), (1, 3), (2, 3), (3, 1)]           // highlights, midtones, shadows, blend (%)
            case .dropShadow: [(0, 3), (1, 1), (2, 1), (3, 1), (4, 1)] // colour, opacity (0…255), direction, distance, softness
            case .gaussianBlur: [(0, 1), (1, 1)]                      // blurriness, dimensions
            // anchor point, position, uniform scale, scale height, scale width (%), skew, skew axis, rotation (°), opacity (%)
            case .transform: [(0, 2), (1, 2), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1)]
            // start of ramp, start colour, end of ramp, end colour, ramp shape (1 linear, else radial), blend with original (%)
            case .gradientRamp: [(0, 2), (1, 3), (2, 2), (3, 3), (4, 1), (6, 1)]
            }
        }
    }
    var kind: Kind
    /// The JSON path of the effect (`…ef[i]`).
    var path: String
    /// The parameters by place: each value's JSON path (`…ef[i].ef[j].v`) and property; nil
    /// where the entry has no property.
    var parameters: [(path: String, value: LottieAnimated<[Double]>)?]

    /// Parameter `i` (present: the parser checked the ones drawn).
    func parameter(_ i: Int) -> (path: String, value: LottieAnimated<[Double]>) { parameters[i]! }
}

/// A text document: what a text layer shows from a keyframe on (LottieText.swift).
struct LottieTextDocument {
    var text: String
    /// The font for Strata's text stack ("Family Style", resolved by fontconfig).
    var font: String
    var size: Double
    /// 0 left, 1 right, 2 centre (the justified modes 3…6 are drawn left, or as their last line).
    var justify: Int
    /// Extra space between characters, thousandths of an em.
    var tracking: Double
    /// Distance between baselines, points.
    var lineHeight: Double
    var baselineShift: Double
    var fill: [Double]?
    var stroke: [Double]?
    var strokeWidth: Double
    var strokeOverFill: Bool
    /// Box text: its top-left corner and size (nil: point text, the first baseline at y = 0).
    var boxPosition: [Double]?
    var boxSize: [Double]?
    /// Embedded glyphs for every character (nil: the installed font draws the text).
    var glyphs: [Character: LottieGlyph]? = nil
    /// The font's ascent from the font list (`ascent`, hundredths of the size), if given.
    var ascent: Double? = nil
    /// The document's font name (`f`, a key of the font list), for its embedded glyphs.
    var fontName: String = ""
}

/// A text layer's documents, each from its frame on (hold keyframes).
struct LottieText {
    var documents: [(time: Double, document: LottieTextDocument)]
    /// Text animators (`t.a`); none: the text is drawn a line a layer.
    var animators: [LottieTextAnimator] = []
    /// The grouping alignment (`t.m.a`, percent of a character's advance and of 0.857 em):
    /// where each character turns and scales about, relative to the middle of its baseline.
    var alignment: [Double] = [0, 0]
    /// Text on a path (`t.p`), nil for none.
    var path: LottieTextPath? = nil
}

/// Text set along one of its layer's masks (`t.p`): the characters follow the mask's path from
/// the first margin (`f`, animatable), turned along it when perpendicular (`p`), spread over it
/// with force alignment (`a`), along the path reversed (`r`).
struct LottieTextPath {
    var mask: Int
    var firstMargin: LottieAnimated<[Double]>
    var perpendicular: Bool
    var forceAlignment: Bool
    var reversed: Bool
}

struct LottieImageAsset {
    var path: String
    var width: Double, height: Double
    /// The encoded image (from a data URL or a file next to the animation), nil when missing.
    var data: Data?
    var name: String
}

/// A parsed Lottie animation (the lottie-spec JSON, After Effects' Bodymovin export).
///
/// Read it from JSON, a Telegram sticker (`.tgs`, gzip'd JSON) or a dotLottie archive
/// (`.lottie`); every error names the JSON path at fault, and what Strata does not render is
/// listed in `unsupported`.
///
///     let animation = try LottieAnimation(contentsOf: URL(fileURLWithPath: "anim.json"))
///     print(animation.width, animation.height, animation.frameRate, animation.unsupported)
public struct LottieAnimation {
    /// The composition's width in points (`w`).
    public let width: Double
    /// The composition's height in points (`h`).
    public let height: Double
    /// Frames a second (`fr`).
    public let frameRate: Double
    /// The first frame shown (`ip`).
    public let inPoint: Double
    /// The frame where it ends (`op`, not shown).
    public let outPoint: Double
    /// The animation's name (`nm`; empty when it has none).
    public let name: String
    /// The Bodymovin version that wrote it (`v`).
    public let version: String
    /// Its markers, in the file's order.
    public let markers: [LottieMarker]
    /// Font families the document names (text layers draw them with the installed font
    /// fontconfig picks for each family and style).
    public let fonts: [String]
    /// Slot ids the file defines (`slots`), sorted: what `LottieReplacements` can fill by id.
    public let slotIDs: [String]
    /// Names of the text layers (in all compositions), sorted: what `LottieReplacements.texts` can fill.
    public let textLayerNames: [String]
    /// The layers' expression controls and pseudo effects (values expressions read; nothing
    /// drawn), the top composition's first, then each precomposition's by id.
    public let expressionControls: [LottieExpressionControl]
    /// Image layers' replacement images by layer name (LottieReplacements.images).
    var layerImages: [String: Data]
    /// Image assets by id.
    var images: [String: LottieImageAsset]
    /// Precompositions by id.
    var precomps: [String: [LottieLayerModel]]
    var layers: [LottieLayerModel]
    /// Loop expressions (loopOut/loopIn) by the JSON path of their property.
    var loops: [String: LottieLoop]
    /// The other expressions, evaluated per frame.
    var expressions: LottieExpressions
    /// Every feature in the file that Strata does not render, with its JSON path.
    public private(set) var unsupported: [LottieUnsupported]
    /// The limits it was read under (and that its compilation keeps to).
    public let limits: LottieLimits

    /// Frames from the in to the out point.
    public var frameCount: Double { outPoint - inPoint }
    /// Seconds from the in to the out point.
    public var duration: Double { frameCount / frameRate }
    /// Layers in the top-level composition.
    public var layerCount: Int { layers.count }
    /// Names of the image assets.
    public var imageNames: [String] { images.values.map(\.name).sorted() }

    /// Parses Lottie JSON. `baseURL` is the folder external images are read from (nil: none);
    /// `replacements` fill colours, images and texts by name or slot id.
    public init(data: Data, limits: LottieLimits = LottieLimits(), baseURL: URL? = nil,
                replacements: LottieReplacements = LottieReplacements()) throws {
        try self.init(data: data, limits: limits, replacements: replacements, files: baseURL.map { base in
            { relative in try? Data(contentsOf: base.appendingPathComponent(relative)) }
        })
    }

    /// Parses Lottie JSON whose external images come from `files` (a path relative to the
    /// animation, below it; nil: no files).
    init(data: Data, limits: LottieLimits, replacements: LottieReplacements = LottieReplacements(), files: ((String) -> Data?)?) throws {
        guard data.count <= limits.fileBytes else {
            throw LottieError(path: "", "the file is \(data.count) bytes, over the limit of \(limits.fileBytes)")
        }
        self.limits = limits
        let root = try JSONNode.parse(data)
        guard root.isObject else { throw root.error("expected a Lottie object at the top level") }
        var notes = LottieNotes()
        width = try root.required("w").number()
        height = try root.required("h").number()
        for (key, v) in [("w", width), ("h", height)] where !(v > 0 && v <= Double(limits.size)) {
            throw LottieError(path: key, "\(v) is outside 1…\(limits.size) (the size limit)")
        }
        frameRate = try root.required("fr").number()
        guard frameRate > 0 && frameRate <= 1000 else { throw LottieError(path: "fr", "\(frameRate) is not a frame rate in (0, 1000]") }
        inPoint = try root.required("ip").number()
        outPoint = try root.required("op").number()
        guard outPoint > inPoint else { throw LottieError(path: "op", "the out point \(outPoint) must come after the in point \(inPoint)") }
        guard outPoint - inPoint <= Double(limits.frames) else {
            throw LottieError(path: "op", "\(outPoint - inPoint) frames, over the limit of \(limits.frames)")
        }
        name = try root.string("nm") ?? ""
        version = try root.string("v") ?? ""

        var markers: [LottieMarker] = []
        if let m = try root.optional("markers") {
            for e in try m.elements() {
                markers.append(LottieMarker(name: try e.string("cm") ?? "", frame: try e.number("tm", default: 0), duration: try e.number("dr", default: 0)))
            }
        }
        self.markers = markers
        var fonts: [String] = []
        var fontTable: [String: String] = [:], familyTable: [String: String] = [:]
        var styleTable: [String: String] = [:], ascentTable: [String: Double] = [:]
        if let f = try root.optional("fonts"), let list = try f.optional("list") {
            for e in try list.elements() {
                let family = try e.string("fFamily") ?? e.string("fName") ?? ""
                fonts.append(family)
                // "Family Style" for fontconfig ("Roboto Bold"); the style's words set weight and slant.
                let style = try e.string("fStyle") ?? ""
                if let name = try e.string("fName") {
                    fontTable[name] = style.isEmpty ? family : "\(family) \(style)"
                    familyTable[name] = family
                    styleTable[name] = style
                    if let a = try e.optional("ascent"), a.isNumber {
                        let v = try a.number()
                        guard abs(v) <= 1_000 else { throw a.error("\(v) is not an ascent within ±1000 % of the size") }
                        ascentTable[name] = v
                    }
                }
            }
        }
        self.fonts = fonts
        var glyphs = LottieGlyphTable()
        if let chars = try root.optional("chars") {
            guard chars.isArray else { throw chars.error("expected an array of glyphs") }
            glyphs = try LottieGlyphTable.parse(chars, limits: limits, notes: &notes)
        }
        var slots: [String: JSONNode] = [:]
        if let s = try root.optional("slots") {
            guard s.isObject else { throw s.error("expected an object of slots by id") }
            for key in s.keys { slots[key] = try s.required(key) }
        }
        var index = ReplacementIndex()
        slotIDs = slots.keys.sorted()

        var images: [String: LottieImageAsset] = [:]
        var precompNodes: [String: JSONNode] = [:]
        if let assets = try root.optional("assets") {
            for a in try assets.elements() {
                let id = try a.required("id").string()
                if let layers = try a.optional("layers") {
                    precompNodes[id] = layers
                } else {
                    images[id] = try LottieAnimation.parseImage(a, files: files, replacements: replacements, slots: slots,
                                                                index: &index, notes: &notes)
                }
            }
        }
        self.images = images
        var parser = LayerParser(notes: notes, limits: limits, replacements: replacements, slots: slots, fonts: fontTable, index: index)
        parser.fontFamilies = familyTable
        parser.fontStyles = styleTable
        parser.fontAscents = ascentTable
        parser.glyphs = glyphs
        layers = try parser.layers(try root.required("layers"))
        var precomps: [String: [LottieLayerModel]] = [:]
        for (id, node) in precompNodes.sorted(by: { $0.key < $1.key }) { precomps[id] = try parser.layers(node) }
        self.precomps = precomps
        expressionControls = parser.controls
        notes = parser.notes
        index = parser.index
        // Image layers named by a replacement show it instead of their asset.
        var layerImages: [String: Data] = [:]
        for l in layers + precomps.values.flatMap({ $0 }) {
            guard case .image = l.content else { continue }
            index.imageNames.insert(l.name)
            if let data = replacements.images[l.name] { layerImages[l.name] = data }
        }
        self.layerImages = layerImages
        textLayerNames = Set((layers + precomps.values.flatMap { $0 }).compactMap { l -> String? in
            if case .text = l.content { return l.name } else { return nil }
        }).sorted()
        try index.check(replacements)
        loops = parser.loops
        let reached = parser.scripts.isEmpty && parser.pathScripts.isEmpty
        expressions = LottieExpressions(scripts: parser.scripts, loops: parser.loops, layers: layers, precomps: precomps,
                                        shapes: reached ? LottieShapeIndex() : parser.shapeIndex, pathScripts: parser.pathScripts,
                                        unrun: parser.unrunScripts,
                                        frameRate: frameRate)
        expressions.imageSizes = images.mapValues { [$0.width, $0.height] }
        expressions.textScripts = parser.textScripts
        expressions.markers = markers.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        expressions.check(&notes)
        // Paths whose expression names another path take its keyframes; those whose expression
        // makes a path (createPath) take keyframes of what it makes.
        let (links, made) = expressions.pathLinks(&notes)
        if !links.isEmpty {
            let paths = parser.shapeIndex.paths
            layers = LottieAnimation.linking(layers, links, paths)
            self.precomps = precomps.mapValues { LottieAnimation.linking($0, links, paths) }
        }
        if !made.isEmpty {
            var precomps = self.precomps
            LottieAnimation.applyingMadePaths(made, expressions: expressions, layers: &layers, precomps: &precomps, limits: limits, notes: &notes)
            self.precomps = precomps
        }
        // Text documents' expressions (Source Text) make documents of their own.
        if !parser.textScripts.isEmpty {
            var precomps = self.precomps
            LottieAnimation.applyingTextExpressions(parser.textScripts, expressions: expressions, layers: &layers, precomps: &precomps,
                                                    parser: &parser, limits: limits, notes: &notes)
            self.precomps = precomps
        }
        // References that point nowhere, and precompositions that contain themselves.
        try LottieAnimation.checkReferences(layers: layers, precomps: precomps, images: images, limits: limits, notes: &notes)
        unsupported = notes.list
    }

    static func parseImage(_ source: JSONNode, files: ((String) -> Data?)?, replacements: LottieReplacements, slots: [String: JSONNode],
                           index: inout ReplacementIndex, notes: inout LottieNotes) throws -> LottieImageAsset {
        var a = source
        // An image slot: the slot's "p" is the asset to use.
        let sid = try source.string("sid")
        if let sid, let slot = slots[sid], let p = try slot.optional("p"), p.isObject { a = p }
        let w = try a.number("w", default: 0), h = try a.number("h", default: 0)
        for (key, v) in [("w", w), ("h", h)] where !(v >= 0 && v <= 1_000_000) {
            throw LottieError(path: a.path + "." + key, "\(v) is not a size in 0…1000000")
        }
        let p = try a.string("p") ?? ""
        // Replaced by asset id, name, file name or slot id (the first that matches).
        let keys = [try source.string("id"), try source.string("nm"), p.hasPrefix("data:") ? nil : p, sid].compactMap { $0 }
        for k in keys { index.imageNames.insert(k) }
        var data: Data?
        if let key = keys.first(where: { replacements.images[$0] != nil }) {
            data = replacements.images[key]
        } else if p.hasPrefix("data:") {
            guard let comma = p.firstIndex(of: ","), p[..<comma].hasSuffix(";base64"),
                  let d = Data(base64Encoded: String(p[p.index(after: comma)...]), options: .ignoreUnknownCharacters) else {
                throw LottieError(path: a.path + ".p", "expected a base64 data URL (data:image/png;base64,…)")
            }
            data = d
        } else if let files, !p.isEmpty {
            var folder = try a.string("u") ?? ""
            if folder.hasPrefix("/") { folder.removeFirst() }   // dotLottie writes "/images/"
            // Only files below the animation's folder are read.
            let relative = folder + p
            if !relative.split(separator: "/").contains("..") && !relative.hasPrefix("/") {
                data = files(relative)
            }
            if data == nil { notes.add(a.path + ".p", "missing image file '\(relative)'") }
        } else if !p.isEmpty {
            notes.add(a.path + ".p", "external image '\(p)' (no folder to read it from)")
        }
        return LottieImageAsset(path: a.path, width: w, height: h, data: data, name: try a.string("nm") ?? (p.hasPrefix("data:") ? (try a.string("id") ?? "") : p))
    }

    static func checkReferences(layers: [LottieLayerModel], precomps: [String: [LottieLayerModel]], images: [String: LottieImageAsset],
                                limits: LottieLimits, notes: inout LottieNotes) throws {
        var total = 0
        func walk(_ list: [LottieLayerModel], depth: Int, stack: [String]) throws {
            total += list.count
            guard total <= limits.layers else { throw LottieError(path: list.first?.path ?? "layers", "more than \(limits.layers) layers (counting each use of a precomposition), over the limit") }
            for l in list {
                switch l.content {
                case .precomp(let id, _, _, _):
                    guard let inner = precomps[id] else { throw LottieError(path: l.path + ".refId", "no precomposition asset with id '\(id)'") }
                    if stack.contains(id) { throw LottieError(path: l.path + ".refId", "precomposition '\(id)' contains itself (\((stack + [id]).joined(separator: " → ")))") }
                    guard depth < limits.precompDepth else { throw LottieError(path: l.path + ".refId", "precompositions nested more than \(limits.precompDepth) deep") }
                    try walk(inner, depth: depth + 1, stack: stack + [id])
                case .image(let id):
                    guard images[id] != nil else { throw LottieError(path: l.path + ".refId", "no image asset with id '\(id)'") }
                    if images[id]?.data == nil { notes.add(l.path + ".refId", "image '\(id)' has no data") }
                default: break
                }
            }
        }
        try walk(layers, depth: 0, stack: [])
    }
}

/// The unsupported features met while parsing, in file order, each path once.
struct LottieNotes {
    private(set) var list: [LottieUnsupported] = []
    private var seen: Set<String> = []
    mutating func add(_ path: String, _ feature: String) {
        let key = path + "|" + feature
        guard seen.insert(key).inserted else { return }
        list.append(LottieUnsupported(path: path, feature: feature))
    }
}
