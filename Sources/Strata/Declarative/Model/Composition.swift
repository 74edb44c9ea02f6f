// A whole scene in the declarative model: size, frame rate, length, background, the layer tree
// and the scene's timeline. The Swift DSL builds one (`Scene(size:…) { … }` keeps it as
// `scene.composition`); JSON and YAML templates decode one; `Scene(composition:)` compiles it to
// ordinary CALayer and CAAnimation objects. Encoding a DSL scene and decoding it again gives a
// scene that renders the same bytes.
import Foundation

/// A declarative description of a scene.
public struct Composition: Codable, Hashable, Sendable {
    /// Size in points, [width, height].
    public var size: [Double]
    /// Frames per second (e.g. 30, 60, 29.97).
    public var frameRate: Double
    /// Length in seconds.
    public var duration: Double
    /// The colour behind everything (nil: transparent).
    public var background: PropertyValue?
    /// The scene's layers, in order (the first at the back).
    public var layers: [Node]
    /// The scene-level timeline, its steps run one after another from the start.
    public var timeline: [TimelineStep]

    /// A composition of `size` points, `frameRate`, `duration` seconds, a background, layers and a
    /// timeline.
    public init(size: CGSize, frameRate: Double, duration: Double, background: PropertyValue? = nil,
                layers: [Node] = [], timeline: [TimelineStep] = []) {
        self.size = [Double(size.width), Double(size.height)]
        self.frameRate = frameRate
        self.duration = duration
        self.background = background
        self.layers = layers
        self.timeline = timeline
    }

    private enum Keys: String, CodingKey { case size, frameRate, fps, duration, background, layers, timeline }

    public init(from decoder: Decoder) throws {
        let k = try decoder.container(keyedBy: Keys.self)
        size = try k.decode([Double].self, forKey: .size)
        frameRate = try k.decodeIfPresent(Double.self, forKey: .frameRate) ?? k.decodeIfPresent(Double.self, forKey: .fps) ?? 30
        duration = try k.decode(Double.self, forKey: .duration)
        background = try k.decodeIfPresent(PropertyValue.self, forKey: .background)
        layers = try k.decodeIfPresent([Node].self, forKey: .layers) ?? []
        timeline = try k.decodeIfPresent([TimelineStep].self, forKey: .timeline) ?? []
    }

    public func encode(to encoder: Encoder) throws {
        var k = encoder.container(keyedBy: Keys.self)
        try k.encode(size, forKey: .size)
        try k.encode(frameRate, forKey: .frameRate)
        try k.encode(duration, forKey: .duration)
        try k.encodeIfPresent(background, forKey: .background)
        try k.encode(layers, forKey: .layers)
        if !timeline.isEmpty { try k.encode(timeline, forKey: .timeline) }
    }

    /// The composition as JSON (keys sorted, so the same composition gives the same bytes).
    public func jsonData() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try e.encode(self)
    }
}
