// The DSL's Lottie element: a `lottie` node (a LottieLayer) among the other elements of a
// Scene's builder. Making one registers the node kind (`LottieNodes.register()`), so a program
// that writes `Lottie(…)` needs nothing else.
import Foundation
import Strata

/// A Lottie animation placed, scaled and timed like any element, its colours, images and texts
/// replaceable by name or slot id.
///
/// ```swift
/// Scene(size: CGSize(width: 640, height: 360), duration: 3) {
///     Lottie("badge.json")
///         .frame(x: 220, y: 80, width: 200, height: 200)
///         .start(at: 0.5).speed(1.5).loop()
///         .color(Color.hex("#E63946"), for: "Badge")
///         .text("Ada", for: "Title")
/// }
/// ```
public struct Lottie: LayerElement {
    /// The node this element builds.
    public var node: Node

    /// The Lottie at `file` (.json, .lottie or .tgs; relative paths from the scene's asset folder).
    public init(_ file: String) {
        LottieNodes.register()
        node = Node(.lottie, properties: ["lottie": .string(file)])
    }

    /// Starts playing `seconds` into the scene (nothing is shown before).
    public func start(at seconds: Double) -> Lottie { property("start", seconds) }
    /// Plays `rate` times as fast.
    public func speed(_ rate: Double) -> Lottie { property("speed", rate) }
    /// Loops for ever, or plays `plays` times; the last frame stays after the last play.
    public func loop(_ plays: Int? = nil) -> Lottie {
        plays.map { property("loop", $0) } ?? property("loop", true)
    }
    /// Plays only the frames of the marker named `marker`.
    public func segment(_ marker: String) -> Lottie { property("segment", marker) }
    /// Pins the frame shown: a fraction of the frames, 0…1 (animatable: key `"progress"`).
    public func progress(_ fraction: Double) -> Lottie { property("progress", fraction) }
    /// Fills and strokes named `name` (or in a group or layer of that name, or with that slot id) in `color`.
    public func color(_ color: Color, for name: String) -> Lottie { entry("colors", name, color.propertyValue) }
    /// The text layer named `name` (or the text slot of that id) shows `text`.
    public func text(_ text: String, for name: String) -> Lottie { entry("texts", name, .string(text)) }
    /// The image asset, image layer or slot named `name` shows the image at `file`.
    public func image(_ file: String, for name: String) -> Lottie { entry("images", name, .string(file)) }

    private func entry(_ key: String, _ name: String, _ value: PropertyValue) -> Lottie {
        var copy = self
        var table: [String: PropertyValue] = [:]
        if case .object(let o)? = node.properties[key] { table = o }
        table[name] = value
        copy.node.properties[key] = .object(table)
        return copy
    }
}
