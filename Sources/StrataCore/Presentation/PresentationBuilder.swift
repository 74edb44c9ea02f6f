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
        let copy = type(of: model).init(layer: model)
        copy.isPresentationCopy = true
        copy.modelLayerReference = model
        // Presentation copies keep the model's superlayer for time conversion of the root.
        copy.applyAnimations(atLocalTime: model.sceneTimeToLocal(time), from: model)
        copy.withActionsSuppressed { copy.updatePresentation(atSceneTime: time) }
        if let m = model.mask { copy.mask = presentationTree(of: m) }
        if let subs = model.sublayers {
            let copies = subs.map { presentationTree(of: $0) }
            copy.withActionsSuppressed { copy.setSublayersForPresentation(copies) }
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
                                 minificationFilter: minificationFilter, magnificationFilter: magnificationFilter)
            },
            content: snapshotContent(),
            mask: mask.map { Box($0.makeSnapshot()) },
            sublayers: (sublayers ?? []).map { $0.makeSnapshot() },
            name: name)
        snap.shadowPath = shadowPath
        snap.gradient = snapshotGradient()
        snap.shouldRasterize = shouldRasterize
        snap.rasterizationScale = rasterizationScale
        return snap
    }
}
