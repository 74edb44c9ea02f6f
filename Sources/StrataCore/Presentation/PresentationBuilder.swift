// Evaluates the model tree at one scene time: presentation copies (CALayer objects with every
// animation applied, as `presentation()` returns them) and the Sendable snapshot the renderer
// reads.
import Foundation

/// **Strata:** a layer whose sublayers see a time it computes from its presented values, not its
/// local time (StrataLottie's `LottieLayer`: an animated `progress` picks the frame its compiled
/// layers show). Asked on the presentation copy, after its animations are applied.
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
        guard PresentationBuilder.isCopiedWhole(model), !animated || PresentationBuilder.animatesGeometryOnly(model) else {
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
    /// CALayer, CAGradientLayer, CAShapeLayer and CATextLayer, not a subclass.
    static func isCopiedWhole(_ layer: CALayer) -> Bool {
        let cls = ObjectIdentifier(type(of: layer))
        return cls == ObjectIdentifier(CALayer.self) || cls == ObjectIdentifier(CAGradientLayer.self)
            || cls == ObjectIdentifier(CAShapeLayer.self) || cls == ObjectIdentifier(CATextLayer.self)
    }

    // MARK: Animated geometry without a copy

    // A layer of one of those classes whose animations only move it — its transform, position,
    // anchor point, z position, sublayer transform or opacity, none additive, no transition —
    // shows its model's snapshot with those fields replaced: none of them enters its content,
    // gradient or drawing. So the snapshot is the model's (a gradient's cached, say), with the
    // animations applied to those fields as `applyAnimations` applies them to a copy, in the
    // same order and with the same conversions. A shape's `path` and a text's `string` may
    // animate too: their content is made for the animated value. Measured on the motion scene driven by a Scene
    // (200 spinning rectangles): the copies, their animations and their snapshots were most of
    // the scene's own work a frame.

    /// The keys whose snapshot field is the property's value itself.
    private static let geometryKeys: Set<String> = ["transform", "position", "anchorPoint", "zPosition", "sublayerTransform", "opacity"]

    /// The key whose value a layer's content is made from, when that content can be made for
    /// another value without a copy: a shape layer's `path`, a text layer's `string`.
    private static func contentKey(of layer: CALayer) -> String? {
        let cls = ObjectIdentifier(type(of: layer))
        if cls == ObjectIdentifier(CAShapeLayer.self) { return "path" }
        if cls == ObjectIdentifier(CATextLayer.self) { return "string" }
        return nil
    }

    /// Whether every animation of `layer` is a property animation (or a group of them) of a
    /// geometry key, or of its content key as a whole, none additive.
    static func animatesGeometryOnly(_ layer: CALayer) -> Bool {
        let content = contentKey(of: layer)
        func geometric(_ p: PreparedAnimation) -> Bool {
            switch p.curve {
            case .group(let children): return children.allSatisfy(geometric)
            case .transition: return false
            default:
                return p.keyPath.isEmpty || (!p.isAdditive && (geometryKeys.contains(p.keyBase)
                                                               || (p.keyBase == content && p.keyField == nil)))
            }
        }
        return layer.animationEntries.allSatisfy { geometric($0.prepared) }
    }

    /// Applies `layer`'s animations at its local time `t` to the geometry fields of `snap` (as
    /// `CALayer.applyAnimations` would to a copy); false, with `snap` half changed, when a value
    /// is not of its property's kind (the copy keeps such a value aside: let it be made).
    static func applyGeometryAnimations(of layer: CALayer, atLocalTime t: Double, to snap: inout LayerSnapshot) -> Bool {
        var turn = 0.0, turns = false, ok = true
        let contentKey = contentKey(of: layer)
        for entry in layer.animationEntries where ok {
            entry.prepared.forEachPropertyAnimation(at: t) { leaf, time in
                guard ok else { return }
                let key = leaf.keyBase
                if key == contentKey { return }  // (animatedContent)
                guard let whole = geometryValue(key, of: snap) else { ok = false; return }
                let value: AnimatableValue
                let rotation: Double?
                if leaf.keyField == nil {
                    guard let s = leaf.sample(at: time, underlying: leaf.usesUnderlying ? whole : .number(0)) else { return }
                    (value, rotation) = (s.value, s.rotation)
                } else {
                    guard let field = leaf.field else { return }
                    let underlying = leaf.usesUnderlying ? CALayer.read(field: field, of: whole) : .number(0)
                    guard let underlying, let s = leaf.sample(at: time, underlying: underlying),
                          let updated = CALayer.write(field: field, of: whole, value: s.value) else { return }
                    (value, rotation) = (updated, s.rotation)
                }
                guard setGeometryValue(value, key, of: &snap) else { ok = false; return }
                if let rotation { turn += rotation; turns = true }
            }
        }
        guard ok else { return false }
        if turns { snap.transform = CATransform3DRotate(snap.transform, CGFloat(turn), 0, 0, 1) }
        return true
    }

    /// The content `layer` shows at its local time `t` when its content key is animated: `.some(nil)`
    /// when it is not (the model's content), nil when a value is not of the key's kind (a copy
    /// keeps such a value aside: let it be made). Made before the snapshot, so that the model's
    /// own content is not (a text over the limits would be reported).
    static func animatedContent(of layer: CALayer, atLocalTime t: Double) -> LayerContent?? {
        guard let contentKey = contentKey(of: layer) else { return .some(nil) }
        // The key's value as the copy would hold it (nil: the model's).
        var value: AnimatableValue?
        var ok = true
        for entry in layer.animationEntries where ok {
            entry.prepared.forEachPropertyAnimation(at: t) { leaf, time in
                guard ok, leaf.keyBase == contentKey else { return }
                let underlying = leaf.usesUnderlying ? (value ?? layer.animatableValue(forKey: contentKey) ?? .number(0)) : .number(0)
                guard let s = leaf.sample(at: time, underlying: underlying) else { return }
                switch s.value {
                case .path where contentKey == "path", .discrete where contentKey == "string": value = s.value
                default: ok = false
                }
            }
        }
        guard ok else { return nil }
        // Stored as the property setters store them: a path copied, a string's box opened.
        switch (layer, value) {
        case (let shape as CAShapeLayer, .path(let path)?): return .some(shape.snapshotContent(path: path.map { $0.copy() ?? $0 }))
        case (let text as CATextLayer, .discrete(let box)?): return .some(text.snapshotContent(string: box.value))
        default: return .some(nil)
        }
    }

    /// The value of a geometry key as the layer's property gives it (CALayer.baseProperties).
    private static func geometryValue(_ key: String, of snap: LayerSnapshot) -> AnimatableValue? {
        switch key {
        case "transform": .transform(snap.transform)
        case "position": .point(snap.position)
        case "anchorPoint": .point(snap.anchorPoint)
        case "zPosition": .number(snap.zPosition)
        case "sublayerTransform": .transform(snap.sublayerTransform)
        case "opacity": .number(CGFloat(snap.opacity))
        default: nil
        }
    }

    /// Stores a value as the layer's property setter does; false for a value of another kind.
    private static func setGeometryValue(_ value: AnimatableValue, _ key: String, of snap: inout LayerSnapshot) -> Bool {
        switch (key, value) {
        case ("transform", .transform(let m)): snap.transform = m
        case ("position", .point(let p)): snap.position = p
        case ("anchorPoint", .point(let p)): snap.anchorPoint = p
        case ("zPosition", .number(let n)): snap.zPosition = n
        case ("sublayerTransform", .transform(let m)): snap.sublayerTransform = m
        case ("opacity", .number(let n)): snap.opacity = Float(n)
        default: return false
        }
        return true
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
