// A layer that emits, animates and renders particles. The model side: the emitter's
// properties, its cells, key-value coding of `emitterCells.NAME.KEY`, and the history the
// closed-form simulation needs (EmitterTimeline.swift); the particles themselves are computed
// when the snapshot is made (Particles/) and drawn by StrataRender as images.
import Foundation

/// A layer that emits, animates and renders a particle system (Apple's `CAEmitterLayer`).
///
/// ```swift
/// let emitter = CAEmitterLayer()
/// emitter.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
/// emitter.renderMode = .additive
/// emitter.emitterPosition = CGPoint(x: 150, y: 150)
/// emitter.emitterCells = [spark]            // a CAEmitterCell
/// ```
///
/// **Strata:** particle state at a time is computed in closed form from the time, `seed` and
/// each particle's birth index — never by stepping from frame to frame — so any frame renders
/// alone, chunked renders equal a full one bit for bit, and the number of workers never changes
/// a pixel. The simulation starts at the layer's local time 0 (its `beginTime`), or when the
/// layer is added to a tree inside a scene block if that is later (iOS starts an emitter when it
/// appears); a `timeOffset` or an earlier `beginTime` pre-warms it. Changes made in scene blocks
/// and animations of the emitter's keys apply to particles born from then on; particles keep
/// what they got at birth. Particles are drawn above the layer's background, border and
/// sublayers, in the emitter's plane (with `preservesDepth`, at their z in the superlayer's 3D
/// space).
///
/// Animatable (implicitly inside `scene.at`): `emitterPosition`, `emitterZPosition`,
/// `emitterSize`, `emitterDepth`, `birthRate`, `lifetime`, `velocity`, `scale`, `spin`
/// (`emitterProperties`); and every numeric cell property by key path, `emitterCells.NAME.KEY`
/// (not implicitly).
open class CAEmitterLayer: CALayer {
    /// The animatable emitter properties, each written once with its two homes: the layer's
    /// property and the frozen configuration's of the same name (particles read the
    /// configuration of their birth time). Cell key paths (`emitterCells.NAME.KEY`) are not
    /// listed: they name cells by their `name` at run time, through any depth of subcells, so
    /// they are resolved per layer (`cell(forKeyPath:)`) and each cell's keys are its own
    /// (CellParameters.kinds).
    static let emitterFields: [EmitterProperty] = [
        .init("emitterPosition", \.emitterPosition, \.emitterPosition, .point),
        .init("emitterZPosition", \.emitterZPosition, \.emitterZPosition, .number),
        .init("emitterSize", \.emitterSize, \.emitterSize, .size), .init("emitterDepth", \.emitterDepth, \.emitterDepth, .number),
        .init("birthRate", \.birthRate, \.birthRate, .float), .init("lifetime", \.lifetime, \.lifetime, .float),
        .init("velocity", \.velocity, \.velocity, .float), .init("scale", \.scale, \.scale, .float), .init("spin", \.spin, \.spin, .float),
    ]
    /// The animatable emitter properties of the layer (key-value access and implicit actions).
    public static let emitterProperties = AnimatableProperties(emitterFields.map(\.layer))
    /// The same properties of a configuration, by key.
    static let configurationFields = ValueField.keyed(emitterFields.map(\.configuration))

    /// The cells that define the particles (default nil).
    public var emitterCells: [CAEmitterCell]? {
        willSet { emitterWillChange() }
        didSet {
            journal(self, \.emitterCells, oldValue)
            for c in emitterCells ?? [] { c.addOwner(self) }
        }
    }
    /// Multiplies every cell's birth rate (default 1). Animatable.
    public var birthRate: Float = 1 {
        willSet { emitterWillChange() }
        didSet { journal(self, \.birthRate, oldValue); didChange("birthRate", oldValue: .number(CGFloat(oldValue))) }
    }
    /// Multiplies every particle's lifetime (default 1). Animatable.
    public var lifetime: Float = 1 {
        willSet { emitterWillChange() }
        didSet { journal(self, \.lifetime, oldValue); didChange("lifetime", oldValue: .number(CGFloat(oldValue))) }
    }
    /// The centre of the emission shape, in the layer's coordinates (default (0, 0)). Animatable.
    public var emitterPosition = CGPoint.zero {
        willSet { emitterWillChange() }
        didSet { journal(self, \.emitterPosition, oldValue); didChange("emitterPosition", oldValue: .point(oldValue)) }
    }
    /// The z of the emission shape's centre (default 0). Animatable.
    public var emitterZPosition: CGFloat = 0 {
        willSet { emitterWillChange() }
        didSet { journal(self, \.emitterZPosition, oldValue); didChange("emitterZPosition", oldValue: .number(oldValue)) }
    }
    /// The size of the emission shape (default zero). Animatable.
    public var emitterSize = CGSize.zero {
        willSet { emitterWillChange() }
        didSet { journal(self, \.emitterSize, oldValue); didChange("emitterSize", oldValue: .size(oldValue)) }
    }
    /// The depth of a cuboid emission shape (default 0). Animatable.
    public var emitterDepth: CGFloat = 0 {
        willSet { emitterWillChange() }
        didSet { journal(self, \.emitterDepth, oldValue); didChange("emitterDepth", oldValue: .number(oldValue)) }
    }
    /// The emission shape (default `.point`).
    public var emitterShape: CAEmitterLayerEmitterShape = .point {
        willSet { emitterWillChange() }
        didSet { journal(self, \.emitterShape, oldValue) }
    }
    /// Where on the shape particles are born (default `.volume`).
    public var emitterMode: CAEmitterLayerEmitterMode = .volume {
        willSet { emitterWillChange() }
        didSet { journal(self, \.emitterMode, oldValue) }
    }
    /// Drawing order and blending of the particles (default `.unordered`).
    public var renderMode: CAEmitterLayerRenderMode = .unordered { didSet { journal(self, \.renderMode, oldValue) } }
    /// Whether particles keep their z in the superlayer's 3D space (default false: flattened
    /// into the layer's plane).
    public var preservesDepth = false { didSet { journal(self, \.preservesDepth, oldValue) } }
    /// Multiplies every particle's initial speed (default 1). Animatable.
    public var velocity: Float = 1 {
        willSet { emitterWillChange() }
        didSet { journal(self, \.velocity, oldValue); didChange("velocity", oldValue: .number(CGFloat(oldValue))) }
    }
    /// Multiplies every particle's scale (default 1). Animatable.
    public var scale: Float = 1 {
        willSet { emitterWillChange() }
        didSet { journal(self, \.scale, oldValue); didChange("scale", oldValue: .number(CGFloat(oldValue))) }
    }
    /// Multiplies every particle's spin (default 1). Animatable.
    public var spin: Float = 1 {
        willSet { emitterWillChange() }
        didSet { journal(self, \.spin, oldValue); didChange("spin", oldValue: .number(CGFloat(oldValue))) }
    }
    /// The seed of the particles' random values (default 0). Two emitters with the same seed and
    /// cells make the same particles.
    public var seed: UInt32 = 0 {
        willSet { emitterWillChange() }
        didSet { journal(self, \.seed, oldValue) }
    }

    // MARK: History for the closed form

    /// The configurations in force before each change made in a scene block (recorded).
    var pastEpochs: [EmitterEpoch] = [] { didSet { journal(self, \.pastEpochs, oldValue) } }
    /// The local time the layer was added to a tree inside a scene block (recorded).
    var insertionTime: Double? { didSet { journal(self, \.insertionTime, oldValue) } }
    /// The birth schedule memo (a pure function of the history; not recorded).
    let birthCache = ParticleBirthCache()

    /// The layer's animations are watched: a change is a change of the emitter's configuration.
    override func animationsWillChange() { emitterWillChange() }

    /// A layer with Core Animation's defaults.
    public override init() { super.init() }

    /// **Strata:** no archives: a layer with default values.
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A copy of `layer`'s properties (used for presentation copies); the cells are copied too,
    /// so animating a presentation copy's cells leaves the model's alone.
    public override init(layer: Any) {
        super.init(layer: layer)
        guard let e = layer as? CAEmitterLayer else { return }
        withActionsSuppressed {
            emitterCells = e.emitterCells?.map { $0.deepCopy() }
            birthRate = e.birthRate; lifetime = e.lifetime; emitterPosition = e.emitterPosition
            emitterZPosition = e.emitterZPosition; emitterSize = e.emitterSize; emitterDepth = e.emitterDepth
            emitterShape = e.emitterShape; emitterMode = e.emitterMode; renderMode = e.renderMode
            preservesDepth = e.preservesDepth; velocity = e.velocity; scale = e.scale; spin = e.spin; seed = e.seed
        }
    }

    /// Whether the running code is a scene block whose changes are recorded.
    static var isRecordingChange: Bool {
        guard let ctx = SceneClock.current else { return false }
        return ctx.changeLog != nil && !ctx.isReplaying && ctx.copyingPresentation == 0
    }

    /// Called before a change of anything particles depend on: inside a recording scene block,
    /// keeps the configuration in force until now as a past epoch (once per block time).
    func emitterWillChange() {
        guard !isPresentationCopy, CAEmitterLayer.isRecordingChange else { return }
        let now = sceneTimeToLocal(SceneClock.currentTime)
        if let last = pastEpochs.last, last.until >= now { return }
        let epoch = EmitterEpoch(until: now, configuration: currentConfiguration, entries: animationEntries)
        if let last = pastEpochs.last, last.sameContent(as: epoch) { return }
        pastEpochs.append(epoch)
    }

    override func didEnterTree(atSceneTime t: Double) {
        if !isPresentationCopy { insertionTime = sceneTimeToLocal(t) }
        super.didEnterTree(atSceneTime: t)
    }

    /// The emitter's configuration now (the model's values, no animations).
    public var currentConfiguration: EmitterConfiguration {
        var c = EmitterConfiguration()
        c.emitterPosition = emitterPosition; c.emitterZPosition = emitterZPosition
        c.emitterSize = emitterSize; c.emitterDepth = emitterDepth
        c.emitterShape = emitterShape; c.emitterMode = emitterMode
        c.birthRate = birthRate; c.lifetime = lifetime; c.velocity = velocity; c.scale = scale; c.spin = spin
        c.seed = seed
        c.cells = (emitterCells ?? []).map(\.configuration)
        return c
    }

    /// The local time the simulation starts: 0 (the layer's beginTime), or later if the layer
    /// was added to a tree later.
    var simulationStart: Double { max(0, insertionTime ?? 0) }

    // MARK: Key-value coding and animation

    open override func animatableKind(forKey key: String) -> AnimatableValue.Kind? {
        if let k = CAEmitterLayer.emitterProperties[key]?.kind { return k }
        if let (cell, cellKey) = cell(forKeyPath: key) { return cell.animatableValue(forKey: cellKey)?.kind }
        return super.animatableKind(forKey: key)
    }

    open override func animatableValue(forKey key: String) -> AnimatableValue? {
        if let v = CAEmitterLayer.emitterProperties.value(forKey: key, of: self) { return v }
        if let (cell, cellKey) = cell(forKeyPath: key) { return cell.animatableValue(forKey: cellKey) }
        return super.animatableValue(forKey: key)
    }

    open override func setAnimatableValue(_ value: AnimatableValue, forKey key: String) {
        withActionsSuppressed {
            if CAEmitterLayer.emitterProperties.set(value, forKey: key, of: self) { return }
            if let (cell, cellKey) = cell(forKeyPath: key) {
                cell.setAnimatableValue(value, forKey: cellKey)
            } else {
                super.setAnimatableValue(value, forKey: key)
            }
        }
    }

    open override class func implicitlyAnimates(key: String) -> Bool {
        emitterProperties[key]?.implicitlyAnimates == true || super.implicitlyAnimates(key: key)
    }

    /// The cell named by `emitterCells.NAME(.emitterCells.NAME)*.KEY` and the key in it.
    func cell(forKeyPath path: String) -> (CAEmitterCell, String)? {
        guard path.hasPrefix("emitterCells."), let (names, key) = EmitterConfiguration.cellPath(path) else { return nil }
        var list = emitterCells ?? []
        var found: CAEmitterCell?
        for name in names {
            guard let c = list.first(where: { $0.name == name }) else { return nil }
            found = c
            list = c.emitterCells ?? []
        }
        return found.map { ($0, key) }
    }

    // MARK: Snapshot

    /// The particles at the time this presentation copy shows (for a model layer, at the
    /// current scene time).
    open override func completeSnapshot(_ snapshot: inout LayerSnapshot) {
        let model = (modelLayerReference as? CAEmitterLayer) ?? self
        let t = presentationLocalTime ?? model.sceneTimeToLocal(SceneClock.currentTime)
        snapshot.particles = model.particleSystem(at: t, renderMode: renderMode, preservesDepth: preservesDepth)
    }
}

/// One animatable emitter property: the layer's and a configuration's, stored as the same type.
struct EmitterProperty: Sendable {
    let layer: AnimatableProperty<CAEmitterLayer>
    let configuration: ValueField<EmitterConfiguration>

    init<T>(_ key: String, _ onLayer: ReferenceWritableKeyPath<CAEmitterLayer, T> & Sendable,
            _ inConfiguration: WritableKeyPath<EmitterConfiguration, T> & Sendable, _ codec: ValueCodec<T>) {
        layer = AnimatableProperty(key, onLayer, codec)
        configuration = ValueField(key, inConfiguration, codec)
    }
}
