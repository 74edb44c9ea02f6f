// The result builders of the DSL: `LayerBuilder` collects layers (with `if`, `switch` and `for`),
// `TimelineBuilder` collects timeline steps, `SceneBuilder` both (a scene's body may hold layers
// and `Timeline { … }` blocks side by side).
import Foundation

/// Anything that stands for layers in a builder: an element (`Text`, `Shape`, …), a component,
/// a list of nodes.
public protocol NodeConvertible {
    /// The nodes it stands for.
    var nodes: [Node] { get }
}

extension Node: NodeConvertible { public var nodes: [Node] { [self] } }
extension Array: NodeConvertible where Element == Node { public var nodes: [Node] { self } }

/// Builds a list of layers.
@resultBuilder
public enum LayerBuilder {
    /// An element, a component or a node as nodes.
    public static func buildExpression(_ e: some NodeConvertible) -> [Node] { e.nodes }
    /// The lines of a block, in order.
    public static func buildBlock(_ parts: [Node]...) -> [Node] { parts.flatMap { $0 } }
    /// An `if` without `else`: nothing when false.
    public static func buildOptional(_ part: [Node]?) -> [Node] { part ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first: [Node]) -> [Node] { first }
    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second: [Node]) -> [Node] { second }
    /// A `for` loop's iterations, in order.
    public static func buildArray(_ parts: [[Node]]) -> [Node] { parts.flatMap { $0 } }
    /// An `if #available` branch.
    public static func buildLimitedAvailability(_ part: [Node]) -> [Node] { part }
}

/// Anything that stands for timeline steps in a builder.
public protocol TimelineConvertible {
    /// The steps this value stands for, in order (one for a single step).
    var steps: [TimelineStep] { get }
}

extension TimelineStep: TimelineConvertible { public var steps: [TimelineStep] { [self] } }

/// Builds a list of timeline steps.
@resultBuilder
public enum TimelineBuilder {
    /// A step (`Wait`, `Animate`, `Chain`, …) as steps.
    public static func buildExpression(_ e: some TimelineConvertible) -> [TimelineStep] { e.steps }
    /// The lines of a block, in order.
    public static func buildBlock(_ parts: [TimelineStep]...) -> [TimelineStep] { parts.flatMap { $0 } }
    /// An `if` without `else`: nothing when false.
    public static func buildOptional(_ part: [TimelineStep]?) -> [TimelineStep] { part ?? [] }
    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first: [TimelineStep]) -> [TimelineStep] { first }
    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second: [TimelineStep]) -> [TimelineStep] { second }
    /// A `for` loop's iterations, in order.
    public static func buildArray(_ parts: [[TimelineStep]]) -> [TimelineStep] { parts.flatMap { $0 } }
    /// An `if #available` branch.
    public static func buildLimitedAvailability(_ part: [TimelineStep]) -> [TimelineStep] { part }
}

/// What a scene's body holds: layers and timelines.
public struct SceneContent {
    /// The layers, in order (the first at the back).
    public var nodes: [Node] = []
    /// The scene-level timeline steps, in order.
    public var steps: [TimelineStep] = []
    /// Content of `nodes` and `steps`.
    public init(nodes: [Node] = [], steps: [TimelineStep] = []) { self.nodes = nodes; self.steps = steps }
}

/// Builds a scene's body.
@resultBuilder
public enum SceneBuilder {
    /// An element or component: layers of the scene.
    public static func buildExpression(_ e: some NodeConvertible) -> SceneContent { SceneContent(nodes: e.nodes) }
    /// A `Timeline`: steps of the scene's timeline.
    public static func buildExpression(_ t: Timeline) -> SceneContent { SceneContent(steps: t.steps) }
    /// The lines of a block, in order.
    public static func buildBlock(_ parts: SceneContent...) -> SceneContent { combine(parts) }
    /// An `if` without `else`: nothing when false.
    public static func buildOptional(_ part: SceneContent?) -> SceneContent { part ?? SceneContent() }
    /// The first branch of an `if`/`else` or `switch`.
    public static func buildEither(first: SceneContent) -> SceneContent { first }
    /// The second branch of an `if`/`else` or `switch`.
    public static func buildEither(second: SceneContent) -> SceneContent { second }
    /// A `for` loop's iterations, in order.
    public static func buildArray(_ parts: [SceneContent]) -> SceneContent { combine(parts) }
    /// An `if #available` branch.
    public static func buildLimitedAvailability(_ part: SceneContent) -> SceneContent { part }

    static func combine(_ parts: [SceneContent]) -> SceneContent {
        SceneContent(nodes: parts.flatMap(\.nodes), steps: parts.flatMap(\.steps))
    }
}

/// A reusable piece of a scene, written as a Swift type:
///
/// ```swift
/// struct LowerThird: Component {
///     var name: String, title: String
///     var body: some NodeConvertible {
///         VStack(alignment: .leading, spacing: 4) {
///             Text(name).font("DejaVu Sans Bold", size: 40).foreground(.white)
///             Text(title).font("DejaVu Sans", size: 26).foreground(.hex("#C9D1D9"))
///         }
///         .pin(.bottomLeading, inset: 48)
///     }
/// }
/// ```
/// A plain function returning elements works just as well.
public protocol Component: NodeConvertible {
    /// The type of the component's content: whatever its `body` builds.
    associatedtype Body: NodeConvertible
    /// The elements the component is made of, written with the same builder as a `Scene`'s
    /// content; it is evaluated when the component is placed.
    @LayerBuilder var body: Body { get }
}

extension Component {
    /// The nodes of the component's body.
    public var nodes: [Node] { body.nodes }
}
