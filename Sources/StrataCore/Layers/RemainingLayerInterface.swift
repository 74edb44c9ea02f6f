// The parts of Core Animation's layer API that ported code cannot use unchanged, and why. Kept in
// one file so the gap is visible (STYLE.md). Measured against the port corpus
// (Tests/PortCorpusTests: the seeds' examples ported as an iOS developer writes them).
//
// Impossible in Swift on Linux (no Objective-C runtime)
// - `@NSManaged var progress: CGFloat` on a CALayer subclass: the attribute type-checks, but no
//   accessors are generated (on Apple platforms the Objective-C runtime supplies them), so the
//   program fails to link. Write the property over key-value storage instead — it animates, is
//   copied to presentation layers and is recorded in the scene's history:
//       var progress: CGFloat {
//           get { value(forKey: "progress") as? CGFloat ?? 0 }
//           set { setValue(newValue, forKey: "progress") }
//       }
// - `@objc dynamic` properties and `#selector`: no Objective-C runtime (gesture recognizers'
//   target/action, `perform(_:)`, KVO with `#keyPath`).
// - A subclass that declares its own designated initializer (`init(radius:)`) and overrides
//   `init(layer:)` but *not* `init()` does not compile: "'required' initializer
//   'init(presentationCopyOf:)' must be provided". Swift can construct an object whose class is
//   known only at run time (a presentation copy of your subclass) only through a `required`
//   initializer. Apple's `init(layer:)` is not required — on iOS the Objective-C runtime calls
//   `-initWithLayer:` dynamically — so Strata's entry point is a required *convenience*
//   initializer that delegates to `init(layer:)`; Swift lets a subclass inherit it only when the
//   subclass declares no designated initializer or overrides all of CALayer's: `init()`,
//   `init(layer:)` and `init?(coder:)`. Apple's boilerplate does exactly that; add the missing
//   `override init() { super.init() }` otherwise.
// - A subclass of an animation class (`class MyAnimation: CABasicAnimation`) that declares
//   initializers writes `required init()` (copies are made through the dynamic class's `init()`).
//
// Not implemented
// - `CALayer.render(in:)` (drawing a layer tree into a CGContext), `CALayer.layerClass`-style
//   archiving (`NSCoding`: `init?(coder:)` makes a default layer; nothing is ever decoded),
//   `CALayer.filters`/`backgroundFilters` (no Core Image), `contentsFormat`,
//   `drawsAsynchronously` (accepted by nothing: drawing is offline anyway), `cornerCurve`
//   `.continuous` (drawn circular), `CAMetalLayer`, `CAEAGLLayer`.
// - `compositingFilter` takes Core Image filter *names* only: the W3C blend modes
//   (`"multiplyBlendMode"` … `"luminosityBlendMode"`), `"linearDodgeBlendMode"`,
//   `"additionCompositing"` and `"sourceOverCompositing"`, also with the `CI` prefix
//   (CALayer+CompositingFilter.swift). A
//   `CIFilter` object (no Core Image) and the other compositing filters (`"sourceAtopCompositing"`,
//   `"minimumCompositing"`, `"linearBurnBlendMode"`, `"subtractBlendMode"`, …) are drawn
//   source-over and reported (`Scene.notes`, an export's warnings). `setValue(_:forKey:
//   "compositingFilter")` stores a custom value and does not set it.
// - Key-value coding answers Swift values (`value(forKey: "transform")` is a `CATransform3D`,
//   numbers are `CGFloat`), where iOS answers `NSValue`/`NSNumber` boxes; code that force-casts
//   the result to `NSValue` fails. Animations accept both forms as values.
//
// Strata's choices where Apple documents nothing (or where the reference differs)
// - Scene history: every change a scene block makes to a layer (all properties of every class,
//   sublayers, masks, animations, KVC values, layout and display results) is recorded so frames
//   can be rendered in any order. Stored properties of your own subclasses are not: a drawing
//   made from them at the block's commit is (layout and display run when each block commits).
// - The sublayers of a layer are painted far to near by the depth of their centres after
//   transforms (Core Animation sorts the planes of a layer's 3D scene; the seeds' cube of six
//   views relies on it). CORE_ANIMATION.md §1.2 says siblings keep zPosition/insertion order;
//   for 2D sublayers the two agree. Inside a CATransformLayer, depth is resolved per pixel.
// - CATiledLayer: tiles do not fade in (`fadeDuration()` is kept but not applied). On a device a
//   tile fades in because it arrives late; offline every tile the frame shows is drawn for it,
//   so a frame looks like the device once its tiles have arrived and never depends on which
//   frames were rendered before. `draw(in:)` runs on the render workers, several tiles at once.
// - CAEmitterLayer: particles are computed in closed form (no frame-to-frame simulation); a
//   change in a scene block applies to particles born afterwards. Particles are drawn above the
//   emitter layer's own content, sublayers and border; without `preservesDepth` their z is
//   ignored. Live particles per emitter and instances per replicator are bounded by the scene's
//   limits (`--limit particles=N`, `--limit instances=N`): over one, the frame fails naming the layer.
import Foundation
