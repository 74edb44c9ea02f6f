// The particles of a `CAEmitterLayer` at one time, as the renderer reads them: compact values in
// drawing order, each naming one of a few images. The renderer draws each as its image, centred
// on the particle's position in the emitter layer's coordinates, scaled, turned and multiplied by
// its colour (additively blended in `.additive` mode).
import Foundation

/// The image of a cell, as its particles show it.
public struct ParticleImage: Sendable, Hashable {
    /// The cell's `contents` image.
    public var image: CGImage
    /// The part of the image shown, in unit coordinates.
    public var contentsRect: CGRect
    /// Image pixels per point.
    public var contentsScale: CGFloat
    /// The cell's minification filter.
    public var minificationFilter: CALayerContentsFilter
    /// The cell's magnification filter; the particle is sampled nearest-neighbour only when both
    /// filters are `.nearest`.
    public var magnificationFilter: CALayerContentsFilter

    /// The size in points of a particle at scale 1: the shown part of the image over its scale.
    public var size: CGSize {
        let s = max(contentsScale, 1e-6)
        return CGSize(width: CGFloat(image.width) * abs(contentsRect.width) / s,
                      height: CGFloat(image.height) * abs(contentsRect.height) / s)
    }
}

/// One particle at one time.
public struct ParticleSnapshot: Sendable, Hashable {
    /// The centre, in the emitter layer's coordinates (z towards the viewer).
    public var x: Float, y: Float, z: Float
    /// The turn about the centre, radians (clockwise on screen, y down).
    public var rotation: Float
    /// The image scale (0 and below: not drawn).
    public var scale: Float
    /// The colour multiplying the image, straight alpha, components 0…1.
    public var color: RGBA
    /// Index into `ParticleSystemSnapshot.images`.
    public var image: Int32
    /// The layer-local time the particle was born (for diagnostics and tests).
    public var birthTime: Double
    /// The particle's age in its cell's time.
    public var age: Float

    /// A particle with these values.
    public init(x: Float, y: Float, z: Float, rotation: Float, scale: Float, color: RGBA, image: Int32,
                birthTime: Double, age: Float) {
        self.x = x; self.y = y; self.z = z; self.rotation = rotation; self.scale = scale
        self.color = color; self.image = image; self.birthTime = birthTime; self.age = age
    }
}

/// The live, visible particles of an emitter layer at one time.
public struct ParticleSystemSnapshot: Sendable, Hashable {
    /// The distinct images of the emitter's cells; particles refer to them by index.
    public var images: [ParticleImage]
    /// In drawing order (back to front).
    public var particles: [ParticleSnapshot]
    /// The emitter layer's `renderMode`.
    public var renderMode: CAEmitterLayerRenderMode
    /// Particles keep their z in the superlayer's 3D space instead of being flattened.
    public var preservesDepth: Bool

    /// A particle system with these images and particles, in drawing order.
    public init(images: [ParticleImage], particles: [ParticleSnapshot], renderMode: CAEmitterLayerRenderMode,
                preservesDepth: Bool) {
        self.images = images; self.particles = particles; self.renderMode = renderMode; self.preservesDepth = preservesDepth
    }

    /// Whether the particles add their colour to what is beneath instead of covering it.
    public var isAdditive: Bool { renderMode == .additive }
}
