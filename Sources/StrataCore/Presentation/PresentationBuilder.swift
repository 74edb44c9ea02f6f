// Evaluates the model tree at one scene time: presentation copies (CALayer objects with every
// animation applied, as `presentation()` returns them) and the Sendable snapshot the renderer
// reads.
import Foundation

/// **Strata:** a layer whose sublayers see a time it computes from its presented values, not its
/// local time (StrataLottie's `LottieLayer`: an animated `progress` picks the frame its compiled
/// layers show). Asked on the presentation copy, after its animations are applied.
///
/// `PresentationBuilder.snapshotTree(of:)` makes such a layer's copy alone and snapshots its
/// mask and sublayers as it snapshots any layer (copies only where they are needed), so its
/// `snapshotSublayers()` is not called there; `presentationTree(of:)` copies the whole subtree.
public protocol SublayerTimeMapping: CALayer {
    /// The time the sublayers take as their superlayer's, at this layer's local time `t`.
    func sublayerTime(forLocalTime t: Double) -> Double
}

/// Builds presentation trees and snapshots at a scene time.
public struct PresentationBuilder {
    /// The scene time, in seconds, the trees and snapshots are built at.
    public let time: Double
    /// Where the layers find the limits in force and record what goes over them (SnapshotReport.swift);
    /// nil: the defaults, nothing recorded (or the report of a build this one runs inside).
    public let report: SnapshotReport?

    /// A builder for scene time `time`, reading limits from (and recording issues in) `report`.
    public init(time: Double, report: SnapshotReport? = nil) { self.time = time; self.report = report }

    /// Runs `body` with the report installed for the layers to find.
    private func reporting<T>(_ body: () -> T) -> T {
        guard let report else { return body() }
        return SnapshotReport.building.with(report, body)
    }

    /// A presentation copy of `model` and its subtree (and masks), at `time`.
    public func presentationTree(of model: CALayer) -> CALayer {
        presentationTree(of: model, journal: nil)
    }

    /// A presentation copy at `time`; with a journal, as the layers were before the changes it
    /// recorded (a CATransition's "before" image): old property values, old sublayer lists and
    /// old animation lists.
    func presentationTree(of model: CALayer, journal: TransactionJournal?) -> CALayer {
        reporting { build(model, parentTime: model.superlayer.map { $0.sceneTimeToLocal(time) } ?? time, journal: journal) }
    }

    /// Copies `model` at its parent's local time `parentTime` and recurses with its own local
    /// time (so each layer's time is computed once, top-down).
    private func build(_ model: CALayer, parentTime: Double, journal: TransactionJournal?) -> CALayer {
        let (copy, local) = copyAlone(model, parentTime: parentTime, journal: journal)
        // A mask has no superlayer; it lives in the time of the layer it masks.
        if let m = model.mask { copy.mask = build(m, parentTime: local, journal: journal) }
        // A layer may run its sublayers on a time of its own (a Lottie's animated `progress`).
        let sublayerTime = (copy as? SublayerTimeMapping)?.sublayerTime(forLocalTime: local) ?? local
        if let subs = journal?.originalSublayers(of: model) ?? model.sublayers, !subs.isEmpty {
            let local = sublayerTime
            let copies = subs.map { build($0, parentTime: local, journal: journal) }
            copy.withActionsSuppressed { copy.setSublayersForPresentation(copies) }
            // A replicator's instance i shows its sublayers i·instanceDelay earlier.
            if let replicator = copy as? CAReplicatorLayer {
                let delay = replicator.instanceDelay
                let count = replicator.drawnInstanceCount
                if delay != 0, delay.isFinite, count > 1 {
                    replicator.delayedInstances = (1..<count).map { i in
                        subs.map { build($0, parentTime: local - Double(i) * delay, journal: journal) }
                    }
                }
            }
        }
        return copy
    }

    /// The presentation copy of `model` alone (no mask, no sublayers), with its animations
    /// applied at its local time for `parentTime`, and that local time.
    private func copyAlone(_ model: CALayer, parentTime: Double, journal: TransactionJournal?) -> (CALayer, Double) {
        let ctx = SceneClock.current
        ctx?.copyingPresentation += 1
        let copy = type(of: model).init(presentationCopyOf: model)
        ctx?.copyingPresentation -= 1
        copy.isPresentationCopy = true
        copy.modelLayerReference = model
        journal?.revert(model, on: copy)
        let local = model.localTime(fromParent: parentTime)
        copy.presentationLocalTime = local
        copy.applyAnimations(atLocalTime: local, entries: journal?.originalEntries(of: model) ?? model.animationEntries)
        // Time-dependent content (AVPlayerLayer's video frame) for the scene time shown.
        copy.withActionsSuppressed { copy.updatePresentation(atSceneTime: time) }
        // Custom drawing: the model's, or redrawn while a needsDisplay(forKey:) key animates.
        copy.preparePresentationDrawing(from: model, localTime: local)
        return (copy, local)
    }

    /// The Sendable snapshot of a presentation (or model) tree.
    public func snapshot(of layer: CALayer) -> LayerSnapshot {
        reporting { layer.makeSnapshot() }
    }

    /// The snapshot of `model`'s presentation at `time`: the snapshot of `presentationTree(of:)`,
    /// made without copies where a copy would only repeat the model. A layer of one of Strata's
    /// own classes that has no animations shows its model values (its copy would run no
    /// animation, no time-dependent update and no redraw), so it is snapshotted from the model
    /// and its sublayers are visited the same way; a layer that needs a copy gets one, with its
    /// subtree, as `presentationTree(of:)` makes them. Measured on the standard motion scene
    /// (270 layers, none animated): the copies were half of the snapshot's cost.
    public func snapshotTree(of model: CALayer) -> LayerSnapshot {
        reporting { snapshot(model, parentTime: model.superlayer.map { $0.sceneTimeToLocal(time) } ?? time) }
    }

    private func snapshot(_ model: CALayer, parentTime: Double) -> LayerSnapshot {
        let animated = !model.animationEntries.isEmpty
        guard PresentationBuilder.isCopiedWhole(model), !animated || model.animatesGeometryOnly else {
            if model is SublayerTimeMapping, !(model is CAReplicatorLayer) { return snapshotMappingTime(model, parentTime: parentTime) }
            return build(model, parentTime: parentTime, journal: nil).makeSnapshot()
        }
        // As `build`: the mask and the sublayers live in this layer's local time.
        let local = model.localTime(fromParent: parentTime)
        let mask = model.mask.map { snapshot($0, parentTime: local) }
        let sublayers = sublayerSnapshots(of: model, parentTime: local)
        // An animated path or string: the content made for its value, not the model's (after
        // the mask's and the sublayers', as a copy's snapshot makes them).
        var content: LayerContent?
        if animated {
            guard let animatedContent = PresentationBuilder.animatedContent(of: model, atLocalTime: local) else {
                return build(model, parentTime: parentTime, journal: nil).makeSnapshot()
            }
            content = animatedContent
        }
        var snap = model.makeSnapshot(mask: mask, sublayers: sublayers, content: content)
        if animated, !PresentationBuilder.applyGeometryAnimations(of: model, atLocalTime: local, to: &snap) {
            return build(model, parentTime: parentTime, journal: nil).makeSnapshot()
        }
        return snap
    }

    /// The snapshot of a layer that runs its sublayers on a time of its own (`SublayerTimeMapping`,
    /// a Lottie's layer): its own copy, for that time and its own animated values, while its
    /// mask and sublayers are snapshotted as any layer's, without copies where a copy would only
    /// repeat the model (a Lottie's compiled layers mostly; their copies, made because the
    /// Lottie's layer is of its own class, were about a third of a frame of rlottie's
    /// `confetti.json`).
    private func snapshotMappingTime(_ model: CALayer, parentTime: Double) -> LayerSnapshot {
        let (copy, local) = copyAlone(model, parentTime: parentTime, journal: nil)
        let mask = model.mask.map { snapshot($0, parentTime: local) }
        let sublayerTime = (copy as? SublayerTimeMapping)?.sublayerTime(forLocalTime: local) ?? local
        let sublayers = sublayerSnapshots(of: model, parentTime: sublayerTime)
        return copy.makeSnapshot(mask: mask, sublayers: sublayers)
    }

    /// The snapshots of `model`'s sublayers, made into the storage of the list its last snapshot
    /// made when no snapshot holds that list any more (a new list each frame for every layer with
    /// sublayers was the snapshot's allocation a frame on the standard scenes). A list a snapshot
    /// still holds is left alone: snapshots are values.
    private func sublayerSnapshots(of model: CALayer, parentTime: Double) -> [LayerSnapshot] {
        guard let children = model.sublayers, !children.isEmpty else {
            // A layer whose sublayers are gone keeps no snapshots of them.
            if !model.snapshotSublayerStorage.isEmpty { model.snapshotSublayerStorage = [] }
            return []
        }
        // Moved out of the layer first, so that the layer's reference is not counted.
        var list = model.snapshotSublayerStorage
        model.snapshotSublayerStorage = []
        if list.isOnlyReferenceToStorage() { list.removeAll(keepingCapacity: true) } else { list = [] }
        list.reserveCapacity(children.count)
        for child in children { list.append(snapshot(child, parentTime: parentTime)) }
        model.snapshotSublayerStorage = list
        return list
    }

    /// Whether `layer`'s presentation copy would hold exactly its model values: no animations,
    /// and a class whose copy initializer copies every property its snapshot reads and that does
    /// nothing at presentation time (a subclass — the user's, or AVPlayerLayer, a replicator, an
    /// emitter — may, so it gets its copy).
    static func showsModelValues(_ layer: CALayer) -> Bool {
        layer.animationEntries.isEmpty && isCopiedWhole(layer)
    }

    /// Whether `layer`'s class copies every property its snapshot reads and does nothing at
    /// presentation time (no time-dependent update, no redraw for an animated key): Strata's own
    /// CALayer, CAGradientLayer, CAShapeLayer, CATextLayer and MatteLayer (whose `maskMode` its
    /// copy takes), not a subclass.
    static func isCopiedWhole(_ layer: CALayer) -> Bool {
        let cls = ObjectIdentifier(type(of: layer))
        return cls == ObjectIdentifier(CALayer.self) || cls == ObjectIdentifier(CAGradientLayer.self)
            || cls == ObjectIdentifier(CAShapeLayer.self) || cls == ObjectIdentifier(CATextLayer.self)
            || cls == ObjectIdentifier(MatteLayer.self)
    }

    // MARK: Animated geometry without a copy

    // A layer of one of those classes whose animations only move it — its transform, position,
    // anchor point, z position, sublayer transform, opacity, hidden or shadow (not its path),
    // none additive, no transition — shows its model's snapshot with those fields replaced: none
    // of them enters its content, gradient or drawing. So the snapshot is the model's (a
    // gradient's cached, say), with the animations applied to those fields as `applyAnimations`
    // applies them to a copy, in the same order and with the same conversions. A shape's path,
    // fill and stroke and a text's `string` may animate too: their content is made for the
    // animated values. Measured on the motion scene driven by a Scene (200 spinning rectangles):
    // the copies, their animations and their snapshots were most of the scene's own work a
    // frame; on a Lottie (whose compiled layers animate `hidden` for their in and out points,
    // and shapes' colours and stroke widths) the same.

    /// Whether every animation of `layer` is a property animation (or a group of them) of a
    /// geometry key (`SnapshotKey.Geometry`), or as a whole of a key its content is made from —
    /// a shape layer's path, fill and stroke (`CAShapeLayer.PresentedStyle`), a text layer's
    /// `string` — none additive.
    static func animatesGeometryOnly(_ layer: CALayer) -> Bool {
        let cls = ObjectIdentifier(type(of: layer))
        let isShape = cls == ObjectIdentifier(CAShapeLayer.self), isText = cls == ObjectIdentifier(CATextLayer.self)
        func geometric(_ p: PreparedAnimation) -> Bool {
            switch p.curve {
            case .group(let children): return children.allSatisfy(geometric)
            case .transition: return false
            default:
                if p.keyPath.isEmpty { return true }
                if p.isAdditive { return false }
                switch p.snapshotKey {
                case .geometry: return true
                case .shapeStyle: return isShape && p.keyField == nil
                case .string: return isText && p.keyField == nil
                case .other: return false
                }
            }
        }
        // Through a pointer: the entries read in place, not copied one by one.
        return layer.animationEntries.withUnsafeBufferPointer { entries in
            for i in entries.indices where !geometric(entries[i].prepared) { return false }
            return true
        }
    }

    /// Applies `layer`'s animations at its local time `t` to the geometry fields of `snap` (as
    /// `CALayer.applyAnimations` would to a copy); false, with `snap` half changed, when a value
    /// is not of its property's kind (the copy keeps such a value aside: let it be made).
    static func applyGeometryAnimations(of layer: CALayer, atLocalTime t: Double, to snap: inout LayerSnapshot) -> Bool {
        var turn = 0.0, turns = false, ok = true
        // Through a pointer: the entries read in place, not copied one by one.
        layer.animationEntries.withUnsafeBufferPointer { entries in
            for i in entries.indices where ok {
                entries[i].prepared.forEachPropertyAnimation(at: t) { leaf, time in
                    // Only geometry keys and content keys (animatedContent's) come here.
                    guard ok, case .geometry(let key) = leaf.snapshotKey else { return }
                    let value: AnimatableValue
                    let rotation: Double?
                    if leaf.keyField == nil {
                        let underlying = leaf.usesUnderlying ? geometryValue(key, of: snap) : .number(0)
                        guard let s = leaf.sample(at: time, underlying: underlying) else { return }
                        (value, rotation) = (s.value, s.rotation)
                    } else {
                        guard let field = leaf.field else { return }
                        let whole = geometryValue(key, of: snap)
                        let underlying = leaf.usesUnderlying ? CALayer.read(field: field, of: whole) : .number(0)
                        guard let underlying, let s = leaf.sample(at: time, underlying: underlying),
                              let updated = CALayer.write(field: field, of: whole, value: s.value) else { return }
                        (value, rotation) = (updated, s.rotation)
                    }
                    guard setGeometryValue(value, key, of: &snap) else { ok = false; return }
                    if let rotation { turn += rotation; turns = true }
                }
            }
        }
        guard ok else { return false }
        if turns { snap.transform = CATransform3DRotate(snap.transform, CGFloat(turn), 0, 0, 1) }
        return true
    }

    /// The content `layer` shows at its local time `t` when a content key is animated: `.some(nil)`
    /// when none is (the model's content), nil when a value is not of its key's kind (a copy
    /// keeps such a value aside: let it be made). Made before the snapshot, so that the model's
    /// own content is not (a text over the limits would be reported).
    static func animatedContent(of layer: CALayer, atLocalTime t: Double) -> LayerContent?? {
        let cls = ObjectIdentifier(type(of: layer))
        if cls == ObjectIdentifier(CAShapeLayer.self), let shape = layer as? CAShapeLayer {
            return animatedShapeContent(of: shape, atLocalTime: t)
        }
        guard cls == ObjectIdentifier(CATextLayer.self), let text = layer as? CATextLayer else { return .some(nil) }
        // The string as the copy would hold it (nil: the model's).
        var value: AnimatableValue?
        var ok = true
        let entries = layer.animationEntries
        for i in entries.indices where ok {
            entries[i].prepared.forEachPropertyAnimation(at: t) { leaf, time in
                guard ok, case .string = leaf.snapshotKey else { return }
                let underlying = leaf.usesUnderlying ? (value ?? layer.animatableValue(forKey: "string") ?? .number(0)) : .number(0)
                guard let s = leaf.sample(at: time, underlying: underlying) else { return }
                guard case .discrete = s.value else { ok = false; return }
                value = s.value
            }
        }
        guard ok else { return nil }
        // Stored as the property setter stores it: a string's box opened.
        guard case .discrete(let box)? = value else { return .some(nil) }
        return .some(text.snapshotContent(string: box.value))
    }

    /// `animatedContent` of a shape layer: its path, fill and stroke as its copy would hold them
    /// (each animation sampled over the value the ones before it left, as `applyAnimations` does).
    private static func animatedShapeContent(of shape: CAShapeLayer, atLocalTime t: Double) -> LayerContent?? {
        var style = CAShapeLayer.PresentedStyle(of: shape)
        var animated = false, ok = true
        let entries = shape.animationEntries
        for i in entries.indices where ok {
            entries[i].prepared.forEachPropertyAnimation(at: t) { leaf, time in
                guard ok, case .shapeStyle(let key) = leaf.snapshotKey else { return }
                let underlying = leaf.usesUnderlying ? style.value(forKey: key) : .number(0)
                guard let s = leaf.sample(at: time, underlying: underlying) else { return }
                guard style.set(s.value, forKey: key) else { ok = false; return }
                animated = true
            }
        }
        guard ok else { return nil }
        return .some(animated ? shape.snapshotContent(style: style) : nil)
    }

    /// The value of a geometry key as the layer's property gives it (CALayer.baseProperties).
    private static func geometryValue(_ key: SnapshotKey.Geometry, of snap: LayerSnapshot) -> AnimatableValue {
        switch key {
        case .transform: .transform(snap.transform)
        case .position: .point(snap.position)
        case .anchorPoint: .point(snap.anchorPoint)
        case .zPosition: .number(snap.zPosition)
        case .sublayerTransform: .transform(snap.sublayerTransform)
        case .opacity: .number(CGFloat(snap.opacity))
        case .hidden: .bool(snap.isHidden)
        case .shadowOpacity: .number(CGFloat(snap.shadowOpacity))
        case .shadowRadius: .number(snap.shadowRadius)
        case .shadowOffset: .size(snap.shadowOffset)
        }
    }

    /// Stores a value as the layer's property setter does; false for a value of another kind.
    private static func setGeometryValue(_ value: AnimatableValue, _ key: SnapshotKey.Geometry, of snap: inout LayerSnapshot) -> Bool {
        switch (key, value) {
        case (.transform, .transform(let m)): snap.transform = m
        case (.position, .point(let p)): snap.position = p
        case (.anchorPoint, .point(let p)): snap.anchorPoint = p
        case (.zPosition, .number(let n)): snap.zPosition = n
        case (.sublayerTransform, .transform(let m)): snap.sublayerTransform = m
        case (.opacity, .number(let n)): snap.opacity = Float(n)
        case (.hidden, .bool(let b)): snap.isHidden = b
        case (.shadowOpacity, .number(let n)): snap.shadowOpacity = Float(n)
        case (.shadowRadius, .number(let n)): snap.shadowRadius = n
        case (.shadowOffset, .size(let s)): snap.shadowOffset = s
        default: return false
        }
        return true
    }
}

/// What an animated key is to a snapshot made without a presentation copy
/// (`PresentationBuilder.snapshotTree`), found once when the animation is prepared.
enum SnapshotKey: Sendable {
    /// A key whose snapshot field is the property's value itself (the layer's geometry,
    /// opacity, visibility and shadow), applied to the model's snapshot.
    case geometry(Geometry)
    /// A key a shape layer's content is made from.
    case shapeStyle(CAShapeLayer.PresentedStyle.Key)
    /// A text layer's `string`.
    case string
    /// Any other key: the layer gets a copy.
    case other

    /// The geometry keys, named as the properties.
    enum Geometry: String, Sendable {
        case transform, position, anchorPoint, zPosition, sublayerTransform, opacity, hidden
        case shadowOpacity, shadowRadius, shadowOffset
    }

    /// What the property key `base` (a key path's first part) is.
    init(_ base: String) {
        if let g = Geometry(rawValue: base) {
            self = .geometry(g)
        } else if let s = CAShapeLayer.PresentedStyle.Key(rawValue: base) {
            self = .shapeStyle(s)
        } else {
            self = base == "string" ? .string : .other
        }
    }
}

extension CALayer {
    func setSublayersForPresentation(_ copies: [CALayer]) {
        setSublayersRaw(copies)
    }

    /// Freezes this layer and its subtree into a snapshot. Subclasses extend it through
    /// `snapshotContent()` and `isTransformLayerForSnapshot`.
    public func makeSnapshot() -> LayerSnapshot {
        makeSnapshot(mask: mask.map { $0.makeSnapshot() }, sublayers: snapshotSublayers())
    }

    /// This layer's snapshot with the snapshots of its mask and sublayers made elsewhere.
    /// `content`: what the layer shows instead of its `snapshotContent()` (an animated path or
    /// string's, PresentationBuilder.animatedContent).
    func makeSnapshot(mask: LayerSnapshot?, sublayers: [LayerSnapshot], content: LayerContent? = nil) -> LayerSnapshot {
        let image = contents.flatMap { $0 as? CGImage }
        var snap = LayerSnapshot(
            bounds: bounds, position: position, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
            zPosition: zPosition, transform: transform, sublayerTransform: sublayerTransform,
            isDoubleSided: isDoubleSided, isGeometryFlipped: isGeometryFlipped,
            isTransformLayer: isTransformLayerForSnapshot,
            backgroundColor: RGBA(backgroundColor), cornerRadius: cornerRadius, maskedCorners: maskedCorners,
            borderWidth: borderWidth, borderColor: RGBA(borderColor), opacity: opacity, isHidden: isHidden,
            masksToBounds: masksToBounds, allowsGroupOpacity: allowsGroupOpacity,
            allowsEdgeAntialiasing: allowsEdgeAntialiasing,
            shadowOpacity: shadowOpacity, shadowColor: RGBA(shadowColor), shadowOffset: shadowOffset,
            shadowRadius: shadowRadius,
            contents: image.map {
                ContentsSnapshot(image: $0, gravity: contentsGravity, contentsRect: contentsRect,
                                 contentsCenter: contentsCenter, contentsScale: contentsScale,
                                 minificationFilter: minificationFilter, magnificationFilter: magnificationFilter,
                                 minificationFilterBias: minificationFilterBias)
            },
            content: content ?? snapshotContent(),
            mask: mask.map { Box($0) },
            sublayers: sublayers,
            name: name)
        snap.shadowPath = shadowPath
        snap.gradient = snapshotGradient()
        snap.shouldRasterize = shouldRasterize
        snap.rasterizationScale = rasterizationScale
        if compositingFilter != nil { snap.blendMode = snapshotBlendMode() }
        snap.transition = customValues[TransitionStorage.key] as? TransitionSnapshot
        completeSnapshot(&snap)
        return snap
    }
}
