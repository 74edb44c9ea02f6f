// Compiles a composition (the declarative model) to ordinary Core Animation objects: a CALayer
// tree with properties set, laid out (stacks, centring, pinning; text measured with the text
// layer's own layout), and CABasicAnimation / CAKeyframeAnimation / CASpringAnimation objects with
// begin times from the layers' animations and the timelines. Nothing here draws or evaluates:
// the result is what imperative code could have built, and can be mixed with it.
//
// Animations of one property of one layer are added in the order they start; the first holds its
// start value before it begins (fill backwards) and each holds its end until the next one takes
// over (fill forwards, not removed on completion). A missing `from` is where the property is at
// that point of the scene (its own value, or the previous animation's end), so a chain of
// `to:`-only steps moves on from step to step.
import Foundation
import StrataCore
import StrataMedia

/// Where a composition's assets (images, videos) are found.
public struct CompositionOptions: Sendable {
    /// Relative asset paths are resolved against this folder.
    public var assetFolder: URL
    /// Checks an asset path before it is read (templates refuse paths outside their folder);
    /// returns the URL to read or throws a message.
    public var resolveAsset: (@Sendable (String, URL) throws -> URL)?
    /// The limits the composition is compiled under (layers, text, timeline steps) and the
    /// scene made from it renders under.
    public var limits = SceneLimits()
    /// What the composition's images and videos are decoded under; nil (the default): a context
    /// made from `limits` (`SceneLimits.makeMediaContext()`). The scene made from the composition
    /// keeps it, so scenes given one context (a batch's rows) share its image cache.
    public var media: MediaContext?

    /// A compiler resolving asset paths in `assetFolder`, under these limits.
    public init(assetFolder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                resolveAsset: (@Sendable (String, URL) throws -> URL)? = nil, limits: SceneLimits = SceneLimits()) {
        self.assetFolder = assetFolder
        self.resolveAsset = resolveAsset
        self.limits = limits
    }
}

/// A compiled composition: the layer tree and the changes the scene must make at scene times.
struct CompiledComposition {
    let root: CALayer
    /// (scene time, change): players starting.
    let blocks: [(Double, () -> Void)]
    /// The timeline's markers: name → scene time.
    var markers: [String: Double] = [:]
}

struct CompositionCompiler {
    let composition: Composition
    let options: CompositionOptions
    var issues: [CompositionIssue] = []
    var layersByID: [String: (layer: CALayer, node: Node)] = [:]
    var pending: [Pending] = []
    var blocks: [(Double, () -> Void)] = []
    var markers: [String: Double] = [:]
    var order = 0
    let fps: Double
    let duration: Double
    /// Layers built so far (bounded by `limits.layers`).
    var layerCount = 0
    /// Timeline steps scheduled so far, loops unrolled (bounded by `limits.timelineSteps`), and
    /// whether the bound was reached (everything after it is skipped).
    var stepCount = 0
    var stepsExhausted = false
    /// Text layers whose string counters and reveals compute (CompositionCompiler+TextDrivers.swift).
    var textDrivers: [TextDriver] = []
    var limits: SceneLimits { options.limits }
    /// What images and videos are decoded under (`CompositionOptions.media`).
    let media: MediaContext
    /// Sections' start times in their series (CompositionCompiler+Sections.swift), and the
    /// start of the section whose subtree is being scheduled (its contents count from it).
    var sectionStarts: [ObjectIdentifier: Double] = [:]
    var timeOffset = 0.0
    /// The start of the section whose subtree is being built (a video in it starts with it).
    var buildTimeOffset = 0.0
    /// Each series' transition animations and changes, relative to the series' start.
    var seriesAnimations: [ObjectIdentifier: (animations: [SeriesAnimation], blocks: [(Double, () -> Void)])] = [:]

    /// An animation to make once every layer and time is known.
    struct Pending {
        let layer: CALayer
        let spec: AnimationSpec
        let start: Double
        let path: String
        let order: Int
        /// A `set` step: the value at once.
        var isSet = false
    }

    init(_ composition: Composition, options: CompositionOptions = CompositionOptions()) {
        self.composition = composition
        self.options = options
        media = options.media ?? options.limits.makeMediaContext()
        fps = composition.frameRate > 0 && composition.frameRate.isFinite ? composition.frameRate : 30
        duration = composition.duration
    }

    mutating func issue(_ path: String, _ message: String) {
        issues.append(CompositionIssue(path: path, message: message))
    }

    /// Compiles, or throws every issue found.
    mutating func compile() throws -> CompiledComposition {
        // The video items opened meanwhile (through the registry) decode under `media` too.
        let media = self.media
        return try media.run { try compileUnderMedia() }
    }

    private mutating func compileUnderMedia() throws -> CompiledComposition {
        // Video items are opened here, before the Scene that would install the decoder exists
        // (a process whose first scene comes from a template with a video).
        _ = MediaDecoders.install
        let size = composition.size.count == 2 ? CGSize(width: composition.size[0], height: composition.size[1]) : .zero
        if composition.size.count != 2 { issue("size", "expected a size [width, height], got \(PropertyValue.array(composition.size.map { .number($0) }))") }
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.name = "root"
        if let bg = composition.background {
            do { root.backgroundColor = try PropertyDecoding.color(bg).cgColor } catch {
                issue("background", "expected \(ValueKind.color.expectation), got \(bg)")
            }
        }
        var built: [(Node, CALayer, String)] = []
        for (i, node) in composition.layers.enumerated() {
            let path = "layers[\(i)]"
            let layer = build(node, path: path, proposed: size)
            root.addSublayer(layer)
            built.append((node, layer, path))
        }
        for (node, layer, path) in built { place(node, layer, in: size, path: path) }
        for (node, layer, path) in built { scheduleAnimations(of: node, layer: layer, path: path) }
        _ = scheduleChain(composition.timeline, start: 0, owner: nil, path: "timeline")
        finishAnimations()
        finishTextDrivers()
        if !issues.isEmpty { throw CompositionError(issues: issues) }
        return CompiledComposition(root: root, blocks: blocks, markers: markers)
    }

    // MARK: Layers

    /// Builds the layer of `node` and its subtree; `proposed` is the space its parent offers
    /// (what relative sizes, `fill` and padding are resolved against; the canvas at the top).
    mutating func build(_ node: Node, path: String, proposed: CGSize) -> CALayer {
        // Past the layer limit nothing more is built: the limit stops a template, not time.
        layerCount += 1
        guard layerCount <= limits.layers else {
            if layerCount == limits.layers + 1 {
                issue(path, limits.exceededMessage("the composition has more than \(limits.layers) layers", name: "layers"))
            }
            return CALayer()
        }
        // A kind a module above Strata supplies is made by the compiler it registered.
        var kindCompiler: NodeKindCompiler?
        var kindSize: CGSize?
        if let supplier = node.type.supplyingModule {
            kindCompiler = NodeKindCompilers.compiler(for: node.type)
            if kindCompiler == nil {
                issue("\(path).type", "a \(node.type.rawValue) layer is \(supplier.module)'s: import \(supplier.module) and call \(supplier.registration) before compiling (the strata command does)")
            }
        }
        let layer: CALayer
        if let kindCompiler {
            let options = self.options
            let context = NodeKindContext(path: path, frameRate: fps, duration: duration, explicitSize: explicitSize(of: node), limits: limits,
                                          startOffset: buildTimeOffset, asset: { file in
                if let resolve = options.resolveAsset { return try resolve(file, options.assetFolder) }
                return file.hasPrefix("/") ? URL(fileURLWithPath: file) : options.assetFolder.appendingPathComponent(file)
            })
            layer = kindCompiler.makeLayer(for: node, context: context)
            issues += context.issues
            kindSize = layer.bounds.size
        } else {
            layer = switch node.type {
            case .layer, .group, .hstack, .vstack, .zstack, .image, .terminal, .lottie, .sections, .section, .spacer: CALayer()
            case .shape: CAShapeLayer()
            case .text: CATextLayer()
            case .gradient: CAGradientLayer()
            case .video: AVPlayerLayer()
            case .transformGroup: CATransformLayer()
            }
        }
        if let id = node.id {
            layer.name = id
            if layersByID[id] != nil { issue("\(path).id", "the id \"\(id)\" is used by another layer (ids must be unique)") }
            else { layersByID[id] = (layer, node) }
        }
        let table = PropertyTable.properties(of: node.type)
        let own = kindCompiler?.properties ?? [:]
        for key in node.properties.keys.sorted() {
            let value = node.properties[key]!
            // The kind compiler read its own properties (and reported their problems); a
            // counter's or reveal's keys are read by prepareTextDriver.
            if own[key] != nil || (node.type == .text && Self.textDriverKeys.contains(key)) { continue }
            // A section's `duration` and `transition` are read by its series.
            if node.type == .section, SectionSeries.sectionKeys.contains(key) { continue }
            guard let info = table[key] else {
                if node.type.supplyingModule != nil, kindCompiler == nil { continue }
                let known = (Array(table.keys) + Array(own.keys) + (node.type == .text ? Array(Self.textDriverKeys) : [])).sorted()
                issue("\(path).\(key)", "unknown property for a \(node.type.rawValue) layer\(NearestName.didYouMean(key, among: known))(known: \(known.joined(separator: ", ")))")
                continue
            }
            do {
                try check(value, info.kind)
                try info.apply?(layer, value)
            } catch let m as PropertyDecoding.Mismatch {
                issue("\(path).\(key)", "expected \(m.expected), got \(value)")
            } catch {
                issue("\(path).\(key)", "\(error)")
            }
        }
        prepareTextDriver(node, layer: layer, path: path)
        let intrinsic = kindSize ?? intrinsicSize(of: node, layer: layer, path: path)
        // The box the layout fixes before the content is known (Layout+Fill): relative sizes,
        // `fill`, padding; the sublayers are offered what is inside the padding.
        let box = layoutBox(of: node, proposed: proposed, path: path)
        let isStack = node.type == .hstack || node.type == .vstack || node.type == .zstack
        // What a section holds is built at the section's time (a video in it starts with it).
        let starts = node.type == .sections ? seriesTiming(node, path: path).sections.map(\.start) : []
        let children = isStack ? buildStackChildren(node, box: box, path: path) : node.children.enumerated().map { i, child in
            let p = "\(path).children[\(i)]"
            let outer = buildTimeOffset
            if i < starts.count { buildTimeOffset += starts[i] }
            defer { buildTimeOffset = outer }
            return (child, build(child, path: p, proposed: box.inner), p)
        }
        for (_, l, _) in children { layer.addSublayer(l) }
        // Size: given, else the kind's own (text, image, video, shape), else the children's.
        var size = explicitSize(of: node) ?? intrinsic
        switch node.type {
        case .hstack, .vstack, .zstack:
            let content = layoutStack(node, children: children, path: path, box: box)
            if size == nil { size = content }
        default:
            if size == nil, !children.isEmpty {
                for (c, l, p) in children where c.layout == nil { place(c, l, in: .zero, path: p) }
                let union = children.filter { $0.0.layout == nil }.reduce(CGRect.null) { $0.union($1.1.frame) }
                size = union.isNull ? (children.map { $0.1.bounds.size }.max { $0.width * $0.height < $1.width * $1.height } ?? .zero)
                                    : CGSize(width: max(0, union.maxX), height: max(0, union.maxY))
            }
        }
        let finalSize = box.size(content: size ?? .zero)
        layer.bounds = CGRect(origin: .zero, size: finalSize)
        let inner = box.innerSize(of: finalSize)
        if !isStack {
            for (c, l, p) in children { place(c, l, in: inner, path: p) }
        }
        // Padding moves what the layout placed; a sublayer's own frame or position stays in
        // the parent's coordinates.
        box.shift(children.filter { $0.0.properties["frame"] == nil && $0.0.properties["position"] == nil }.map(\.1))
        if node.type == .sections { compileSections(node, layer: layer, children: children, path: path) }
        if let maskNode = node.mask.first {
            let m = build(maskNode, path: "\(path).mask", proposed: layer.bounds.size)
            place(maskNode, m, in: layer.bounds.size, path: "\(path).mask")
            layer.mask = m
        }
        return layer
    }

    /// Checks that `value` has the shape `kind` wants (throws a mismatch).
    func check(_ value: PropertyValue, _ kind: ValueKind) throws {
        typealias D = PropertyDecoding
        switch kind {
        case .number: _ = try D.number(value)
        case .point: _ = try D.point(value)
        case .size: _ = try D.size(value)
        case .rect: _ = try D.rect(value)
        case .color: _ = try D.color(value)
        case .colorList: _ = try D.colors(value)
        case .numberList: _ = try D.numberList(value)
        case .transform: _ = try D.transform(value)
        case .path: _ = try D.path(value)
        case .bool: _ = try D.bool(value)
        case .string: _ = try D.string(value)
        case .time: _ = try D.time(value, fps: fps)
        case .choice(let options): _ = try D.choice(value, options)
        }
    }

    func explicitSize(of node: Node) -> CGSize? {
        if let f = node.properties["frame"], let r = try? PropertyDecoding.rect(f) { return r.size }
        if let b = node.properties["bounds"], let r = try? PropertyDecoding.rect(b) { return r.size }
        if let s = node.properties["size"], let v = try? PropertyDecoding.size(s) { return v }
        return nil
    }

    /// The size the kind of layer has of itself (text measured, image and video at their pixel
    /// size, a shape its path's box with equal margins), nil for containers.
    mutating func intrinsicSize(of node: Node, layer: CALayer, path: String) -> CGSize? {
        switch node.type {
        case .text:
            guard let text = layer as? CATextLayer, let content = text.textContent else { return .zero }
            // Checked before it is measured: laying out a text costs per Unicode scalar.
            if let problem = TextCost.problem(of: content.cost(scalarLimit: limits.textLength),
                                              scalarLimit: limits.textLength, characterLimit: limits.characterScalars) {
                issue("\(path).string", limits.exceededMessage(problem.what, name: problem.name))
                return .zero
            }
            let wrap = node.properties["wrapWidth"].flatMap { try? PropertyDecoding.number($0) }
            if wrap != nil { text.isWrapped = true }
            let s = TextMetrics.size(of: content, constrainedToWidth: wrap)
            return CGSize(width: wrap ?? s.width.rounded(.up), height: s.height.rounded(.up))
        case .shape:
            // The path's box plus its margin from the origin on the far side too, so a path
            // drawn around (r, r) with radius r - w sits centred in its layer.
            guard let p = (layer as? CAShapeLayer)?.path, !p.isEmpty else { return .zero }
            let b = p.boundingBoxOfPath
            return CGSize(width: max(0, b.maxX + max(0, b.minX)), height: max(0, b.maxY + max(0, b.minY)))
        case .image:
            guard case .string(let file)? = node.properties["image"] else {
                issue("\(path).image", "an image layer needs \"image\": the path of a PNG, JPEG or WebP file")
                return .zero
            }
            do {
                let url = try asset(file)
                let image = try media.image(contentsOf: url)
                layer.contents = image
                return CGSize(width: image.width, height: image.height)
            } catch {
                issue("\(path).image", "cannot read \"\(file)\": \(error)")
                return .zero
            }
        case .video:
            guard case .string(let file)? = node.properties["video"], let playerLayer = layer as? AVPlayerLayer else {
                issue("\(path).video", "a video layer needs \"video\": the path of a video file")
                return .zero
            }
            let url: URL
            do { url = try asset(file) } catch {
                issue("\(path).video", "\(error)")
                return .zero
            }
            let item = AVPlayerItem(url: url)
            let loops = (node.properties["loop"]).flatMap { try? PropertyDecoding.bool($0) } ?? false
            let player: AVPlayer
            if loops {
                let queue = AVQueuePlayer()
                _ = AVPlayerLooper(player: queue, templateItem: item)
                player = queue
            } else {
                player = AVPlayer(playerItem: item)
            }
            if (node.properties["muted"]).flatMap({ try? PropertyDecoding.bool($0) }) == true { player.isMuted = true }
            playerLayer.player = player
            let start = (node.properties["start"]).flatMap { try? PropertyDecoding.time($0, fps: fps) } ?? 0
            let begin = start + buildTimeOffset
            if begin <= 0 { player.play() } else { blocks.append((begin, { player.play() })) }
            if item.status == .failed, let error = item.error {
                issue("\(path).video", "cannot open \"\(file)\": \(error)")
                return .zero
            }
            return item.presentationSize
        default:
            return nil
        }
    }

    /// The URL of an asset path (absolute, or relative to the asset folder).
    func asset(_ path: String) throws -> URL {
        if let resolve = options.resolveAsset { return try resolve(path, options.assetFolder) }
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        return options.assetFolder.appendingPathComponent(path)
    }
}
