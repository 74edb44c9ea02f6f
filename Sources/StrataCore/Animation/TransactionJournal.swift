// What the running scene block — one implicit transaction — has changed so far: the first old
// value of every property set, the sublayer list of every layer whose sublayers changed, and the
// animation list of every layer whose animations changed. A CATransition added in the block
// shows its layer as it was before these changes (its "before" image), and an animation added
// with no values animates from the property's previous presentation value, as Core Animation
// does with the render tree's state from before the transaction.
import Foundation

/// One attached animation as a layer stores it.
typealias AnimationEntry = (key: String, original: CAAnimation, prepared: PreparedAnimation)

/// The changes of one scene block, kept until the block ends.
final class TransactionJournal {
    private var values: [ObjectIdentifier: [String: AnimatableValue]] = [:]
    private var sublayerLists: [ObjectIdentifier: [CALayer]] = [:]
    private var entryLists: [ObjectIdentifier: [AnimationEntry]] = [:]
    /// Keeps the journaled layers alive so their identifiers stay unique during the block.
    private var retained: [ObjectIdentifier: CALayer] = [:]

    /// Records `old` as the value of `key` before the block, unless an earlier change did.
    func recordChange(of layer: CALayer, key: String, old: AnimatableValue) {
        let id = ObjectIdentifier(layer)
        retained[id] = layer
        if values[id]?[key] == nil { values[id, default: [:]][key] = old }
    }

    /// Records the sublayers `parent` had before the block, unless already recorded.
    func recordSublayers(of parent: CALayer, original: @autoclosure () -> [CALayer]) {
        let id = ObjectIdentifier(parent)
        retained[id] = parent
        if sublayerLists[id] == nil { sublayerLists[id] = original() }
    }

    /// Records the animations `layer` has now, if its list has not changed before in the block.
    func recordAnimations(of layer: CALayer) {
        let id = ObjectIdentifier(layer)
        retained[id] = layer
        if entryLists[id] == nil { entryLists[id] = layer.animationEntries }
    }

    /// The value `key` of `layer` had before the block, if the block changed it.
    func oldValue(of layer: CALayer, key: String) -> AnimatableValue? { values[ObjectIdentifier(layer)]?[key] }

    func originalSublayers(of layer: CALayer) -> [CALayer]? { sublayerLists[ObjectIdentifier(layer)] }

    func originalEntries(of layer: CALayer) -> [AnimationEntry]? { entryLists[ObjectIdentifier(layer)] }

    /// Puts the values `model` had before the block back on `copy` (a presentation copy of it).
    func revert(_ model: CALayer, on copy: CALayer) {
        guard let changes = values[ObjectIdentifier(model)] else { return }
        for (key, old) in changes { copy.setAnimatableValue(old, forKey: key) }
    }
}
