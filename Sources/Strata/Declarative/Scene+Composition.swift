// Scenes from the declarative side: the DSL's `Scene(size:frameRate:duration:background:) { … }`
// and `Scene(composition:)` for decoded templates. Both compile the composition to CALayer and
// CAAnimation objects (CompositionCompiler) and keep it as `scene.composition`.
import Foundation
import StrataCore

extension Scene {
    /// A scene built with the DSL:
    ///
    /// ```swift
    /// let scene = Scene(size: CGSize(width: 1280, height: 720), frameRate: 30, duration: 3, background: .hex("#101820")) {
    ///     Text("Hello, Strata").font("DejaVu Sans Bold", size: 72).foreground(.white)
    ///         .center()
    ///         .fadeIn(duration: 0.6)
    /// }
    /// try scene.export(to: URL(fileURLWithPath: "hello.mp4"))
    /// ```
    /// A problem the types cannot rule out (a timeline naming an id no layer has, an image file
    /// that cannot be read) is reported, with where it is, when the scene renders.
    public convenience init(size: CGSize, frameRate: Double = 30, duration: Double, background: Color? = nil,
                            assetFolder: URL? = nil, @SceneBuilder _ content: () -> SceneContent) {
        self.init(size: size, frameRate: frameRate, duration: duration, background: background, assetFolder: assetFolder,
                  limits: SceneLimits(), content)
    }

    /// A DSL scene under `limits` from the start: its images and videos are decoded, and its
    /// layers and timeline counted, under them as it is made (setting `limits` afterwards does
    /// not decode them again).
    public convenience init(size: CGSize, frameRate: Double = 30, duration: Double, background: Color? = nil,
                            assetFolder: URL? = nil, limits: SceneLimits, @SceneBuilder _ content: () -> SceneContent) {
        let body = content()
        var composition = Composition(size: size, frameRate: frameRate, duration: duration,
                                      background: background?.propertyValue, layers: body.nodes, timeline: body.steps)
        let adjustment = SceneFormatOverride.current
        adjustment?.change(&composition)
        var options = CompositionOptions(limits: limits)
        if let assetFolder { options.assetFolder = assetFolder }
        self.init(compiling: composition, options: options)
        isFormatAdjusted = adjustment != nil
    }

    /// Runs `build` (code that makes a DSL scene, with its `scene.at` blocks, audio and limits)
    /// with `change` applied to the composition of every scene the DSL's
    /// `Scene(size:frameRate:duration:background:assetFolder:_:)` and `Scene(composition:)` make
    /// meanwhile: the scene is built again at another size, rate or length, every part of it
    /// included. (The command line's --size, --fps and --duration of a `StrataScript`.) Scenes
    /// built so carry `isFormatAdjusted`; a scene of Core Animation code does not.
    public static func building<R>(adjustedBy change: @escaping @Sendable (inout Composition) -> Void,
                                   _ build: () throws -> R) rethrows -> R {
        try SceneFormatOverride.$current.withValue(SceneFormatOverride(change: change), operation: build)
    }

    /// A scene compiled from a composition (a decoded template, or a DSL scene's
    /// `composition`); throws every problem the composition has, each naming its JSON path.
    public convenience init(composition: Composition, options: CompositionOptions = CompositionOptions()) throws {
        var composition = composition
        let adjustment = SceneFormatOverride.current
        adjustment?.change(&composition)
        var compiler = CompositionCompiler(composition, options: options)
        let compiled = try compiler.compile()
        self.init(rootLayer: compiled.root, size: CGSize(width: composition.size[0], height: composition.size[1]),
                  frameRate: composition.frameRate, duration: composition.duration)
        self.composition = composition
        isFormatAdjusted = adjustment != nil
        markers = compiled.markers
        limits = options.limits
        mediaContext = compiler.media
        for (t, block) in compiled.blocks { at(t, block) }
    }

    /// Compiles, keeping problems for the first render instead of throwing.
    convenience init(compiling composition: Composition, options: CompositionOptions) {
        var compiler = CompositionCompiler(composition, options: options)
        let size = composition.size.count == 2 ? CGSize(width: composition.size[0], height: composition.size[1]) : .zero
        do {
            let compiled = try compiler.compile()
            self.init(rootLayer: compiled.root, size: size, frameRate: composition.frameRate, duration: composition.duration)
            markers = compiled.markers
            for (t, block) in compiled.blocks { at(t, block) }
        } catch let e as CompositionError {
            self.init(rootLayer: CALayer(), size: size, frameRate: composition.frameRate, duration: composition.duration)
            compositionIssues = e.issues
        } catch {
            self.init(rootLayer: CALayer(), size: size, frameRate: composition.frameRate, duration: composition.duration)
            compositionIssues = [CompositionIssue(path: "", message: "\(error)")]
        }
        self.composition = composition
        limits = options.limits
        mediaContext = compiler.media
    }

    /// The first layer named `name` (a DSL element's `id`) in the tree, for imperative code.
    public func layer(named name: String) -> CALayer? {
        func find(_ l: CALayer) -> CALayer? {
            if l.name == name { return l }
            for s in l.sublayers ?? [] { if let f = find(s) { return f } }
            return l.mask.flatMap(find)
        }
        return find(rootLayer)
    }
}

/// The change `Scene.building(adjustedBy:_:)` makes to the compositions built while it runs.
struct SceneFormatOverride: Sendable {
    let change: @Sendable (inout Composition) -> Void
    @TaskLocal static var current: SceneFormatOverride?
}
