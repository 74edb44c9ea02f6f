// An emitter layer's particle-relevant values at one time, frozen: the layer's emitter
// properties and every cell's values. Particles read the configuration of their birth time,
// which the emitter's timeline (EmitterTimeline.swift) keeps for past times; animations are
// applied to a configuration here by key path, exactly as they are applied to a layer
// (`emitterPosition`, `emitterPosition.x`, `birthRate`, `emitterCells.fire.birthRate`,
// `emitterCells.rocket.emitterCells.spark.color`).
import Foundation

/// The values of a `CAEmitterLayer` that decide where, how many and what particles are born.
public struct EmitterConfiguration: Sendable, Equatable {
    /// The centre of the emission shape in the layer's coordinates (default (0, 0)).
    public var emitterPosition = CGPoint.zero
    /// The z of the emission shape's centre (default 0).
    public var emitterZPosition: CGFloat = 0
    /// The size of the emission shape (default zero).
    public var emitterSize = CGSize.zero
    /// The depth of a cuboid emission shape (default 0).
    public var emitterDepth: CGFloat = 0
    /// The emission shape (default `.point`).
    public var emitterShape = CAEmitterLayerEmitterShape.point
    /// Where on the shape particles are born (default `.volume`).
    public var emitterMode = CAEmitterLayerEmitterMode.volume
    /// Multiplies every cell's birth rate (default 1).
    public var birthRate: Float = 1
    /// Multiplies every particle's lifetime (default 1).
    public var lifetime: Float = 1
    /// Multiplies every particle's initial speed (default 1).
    public var velocity: Float = 1
    /// Multiplies every particle's scale (default 1).
    public var scale: Float = 1
    /// Multiplies every particle's spin (default 1).
    public var spin: Float = 1
    /// The seed of the particles' random values (default 0).
    public var seed: UInt32 = 0
    /// The layer's cells, frozen, with their sub-cells.
    public var cells: [CellConfiguration] = []

    /// The configuration of an emitter layer with default values and no cells.
    public init() {}

    /// The value of a top-level key: a layer key (`CAEmitterLayer.emitterFields`) or
    /// `emitterCells.NAME(.emitterCells.NAME)*.KEY`.
    public func value(forKey key: String) -> AnimatableValue? {
        if let field = CAEmitterLayer.configurationFields[key] { return field.get(self) }
        guard let (path, cellKey) = EmitterConfiguration.cellPath(key),
              let cell = EmitterConfiguration.cell(at: path, in: cells) else { return nil }
        return cell.parameters.value(forKey: cellKey)
    }

    /// Sets a top-level key; false when unknown or the value is of another kind.
    @discardableResult
    public mutating func set(_ value: AnimatableValue, forKey key: String) -> Bool {
        if let field = CAEmitterLayer.configurationFields[key] { return field.set(&self, value) }
        guard let (path, cellKey) = EmitterConfiguration.cellPath(key) else { return false }
        return EmitterConfiguration.update(at: path[...], in: &cells) { $0.parameters.set(value, forKey: cellKey) }
    }

    /// Applies `animations` (evaluated at the layer's local time `t`) to the keys this
    /// configuration holds; animations of other keys are ignored. The same rules as a layer's:
    /// animations combine in the order added, fields (`emitterPosition.x`) write into the whole.
    public mutating func apply(_ animations: [PreparedAnimation], at t: Double) {
        for animation in animations {
            animation.forEachPropertyAnimation(at: t) { leaf, time in
                guard let whole = value(forKey: leaf.keyBase) else { return }
                guard let field = leaf.keyField else {
                    if let s = leaf.sample(at: time, underlying: whole) { set(s.value, forKey: leaf.keyBase) }
                    return
                }
                let underlying = leaf.usesUnderlying ? CALayer.read(field: field, of: whole) : .number(0)
                guard let underlying, let s = leaf.sample(at: time, underlying: underlying),
                      let updated = CALayer.write(field: field, of: whole, value: s.value) else { return }
                set(updated, forKey: leaf.keyBase)
            }
        }
    }

    /// Whether any of `animations` animates a key this configuration holds.
    static func affects(_ animations: [PreparedAnimation]) -> Bool {
        var found = false
        for a in animations {
            a.forEachPropertyAnimation(atAnyTime: ()) { leaf in
                if CAEmitterLayer.configurationFields[leaf.keyBase] != nil || leaf.keyBase.hasPrefix("emitterCells.") { found = true }
            }
        }
        return found
    }

    // MARK: Cell key paths

    /// `emitterCells.a.emitterCells.b.key` → (["a", "b"], "key"); nil when not a cell key path.
    static func cellPath(_ key: String) -> ([String], String)? {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var names: [String] = []
        var i = 0
        while i + 2 < parts.count, parts[i] == "emitterCells" {
            names.append(parts[i + 1])
            i += 2
        }
        guard !names.isEmpty, i == parts.count - 1 else { return nil }
        return (names, parts[i])
    }

    /// The cell at a path of names (the first cell with each name).
    static func cell(at path: [String], in cells: [CellConfiguration]) -> CellConfiguration? {
        guard let first = path.first, let c = cells.first(where: { $0.parameters.name == first }) else { return nil }
        return path.count == 1 ? c : cell(at: Array(path.dropFirst()), in: c.cells)
    }

    private static func update(at path: ArraySlice<String>, in cells: inout [CellConfiguration],
                               _ body: (inout CellConfiguration) -> Bool) -> Bool {
        guard let first = path.first, let i = cells.firstIndex(where: { $0.parameters.name == first }) else { return false }
        if path.count == 1 { return body(&cells[i]) }
        return update(at: path.dropFirst(), in: &cells[i].cells, body)
    }
}

extension PreparedAnimation {
    /// Calls `body` with every property animation this one contains (a group's children,
    /// recursively), regardless of time.
    func forEachPropertyAnimation(atAnyTime: Void, _ body: (PreparedAnimation) -> Void) {
        switch curve {
        case .group(let children): for c in children { c.forEachPropertyAnimation(atAnyTime: (), body) }
        case .transition: return
        default: if !keyPath.isEmpty { body(self) }
        }
    }
}
