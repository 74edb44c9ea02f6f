// A player of a queue of items (AVFoundation's `AVQueuePlayer`): when the current item ends the
// next one starts (`actionAtItemEnd` is `.advance` by default). Queue changes, like every player
// call, take effect at the scene time of the code that makes them.
import Foundation

/// Plays a sequence of items.
open class AVQueuePlayer: AVPlayer {
    /// A queue player of `items`, paused at the first item's start.
    public init(items: [AVPlayerItem]) {
        super.init(items: items, actionAtItemEnd: .advance)
    }

    /// A queue player with an empty queue.
    public convenience init() {
        self.init(items: [])
    }

    /// A queue player of one item.
    public override convenience init(playerItem item: AVPlayerItem?) {
        self.init(items: item.map { [$0] } ?? [])
    }

    /// A queue player of the file at `url`.
    public convenience init(url: URL) {
        self.init(items: [AVPlayerItem(url: url)])
    }

    /// The queued items now, the current one first.
    public func items() -> [AVPlayerItem] { currentState.queue }

    /// Ends the current item and starts the next.
    public func advanceToNextItem() { record(.advanceToNextItem) }

    /// Whether `item` can be inserted (it is not in the queue already).
    public func canInsert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) -> Bool {
        !currentState.queue.contains { $0 === item }
    }

    /// Inserts `item` after `afterItem` (nil: at the end).
    public func insert(_ item: AVPlayerItem, after afterItem: AVPlayerItem?) {
        record(.insert(item, after: afterItem))
    }

    /// Removes `item` from the queue (the next one starts if it was current).
    public func remove(_ item: AVPlayerItem) { record(.remove(item)) }

    /// Empties the queue.
    public func removeAllItems() { record(.removeAll) }
}
