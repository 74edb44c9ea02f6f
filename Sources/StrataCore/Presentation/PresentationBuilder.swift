// Evaluates the model tree at one scene time: presentation copies (CALayer objects with every
// animation applied, as `presentation()` returns them) and the Sendable snapshot the renderer
// reads.
import Foundation

/// Builds presentation trees and snapshots at a scene time.
public struct PresentationBuilder {
    public let time: Double

    public init(time: Double) { self.time = time }

    /// A presentation copy of `model` and its subtree (and masks), at `time`.
    public func presentationTree(of model: CALayer) -> CALayer {
        presentationTree(of: model, journal: nil)
    }

    /// A presentation copy at `time`; with a journal, as the layers were before the changes it
    /// recorded (a CATransition's "before" image): old property values, old sublayer lists and
    /// old animation lists.
    func presentationTree(of model: CALayer, journal: TransactionJournal?) -> CALayer {
        build(model, parentTime: model.superlayer.map { $0.sceneTimeToLocal(time) } ?? time, journal: journal)
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
        if let subs = journal?.originalSublayers(of: model) ?? model.sublayers, !subs.isEmpty {
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
        layer.makeSnapshot()
    }

    /// Presentation copies and snapshot in one pass.
    public func snapshotTree(of model: CALayer) -> LayerSnapshot {
        snapshot(of: presentationTree(of: model))
    }
}

extension CALayer {
    func setSublayersForPresentation(_ copies: [CALayer]) {
        setSublayersRaw(copies)
    }

    /// Freezes this layer and its subtree into a snapshot. Subclasses extend it through
    /// `snapshotContent()` and `isTransformLayerForSnapshot`.
    public func makeSnapshot() -> LayerSnapshot {
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
            content: snapshotContent(),
            mask: mask.map { Box($0.makeSnapshot()) },
            sublayers: snapshotSublayers(),
            name: name)
        snap.shadowPath = shadowPath
        snap.gradient = snapshotGradient()
        snap.shouldRasterize = shouldRasterize
        snap.rasterizationScale = rasterizationScale
        snap.transition = customValues[TransitionStorage.key] as? TransitionSnapshot
        completeSnapshot(&snap)
        return snap
    }
}
