// The lists a display-list build works in and hands out, kept across builds with their storage
// (as RecycledObjects keeps shapes and glyph runs): the face lists a build sorts sublayers' items
// with, and the item list of each display list, taken up again once no list holds it. Both live
// in a build's BuildRecords and are used by one build at a time.
import StrataCore

/// Emptied face lists of earlier builds, with their storage: a build needs one for the root's
/// faces and one for each layer with sublayers, and gives each back once its items are in order
/// (two allocations a motion frame before). Faces are plain values, so a list given back holds
/// nothing of the frame. Used by one build at a time (in its BuildRecords).
// @unchecked: mutable, but only ever in the hands of one build (as RepeatedOps).
final class SpareFaceLists: @unchecked Sendable {
    @exclusivity(unchecked) private var lists: [[DisplayListBuilder.Face]] = []

    /// An empty list with room for `capacity` faces.
    func take(capacity: Int) -> [DisplayListBuilder.Face] {
        var list = lists.popLast() ?? []
        list.reserveCapacity(capacity)
        return list
    }

    /// Keeps `list`'s storage for a later `take` (at most 64 lists, as deep as layer trees nest).
    func give(_ list: inout [DisplayListBuilder.Face]) {
        list.removeAll(keepingCapacity: true)
        if lists.count < 64 { lists.append(list) }
        list = []
    }
}

/// The item lists of the display lists earlier builds returned, their storage reused once no
/// display list holds them any more (as FrameBuffers reuses frame buffers): the list of a frame
/// was its display list's one allocation. A list in flight is never touched; the check is its
/// storage's reference count, read only by the build that owns the record.
// @unchecked: mutable, but only ever in the hands of one build (as RepeatedOps).
final class SpareItemLists: @unchecked Sendable {
    /// Lists handed out, oldest first: with frames pipelined and a history, a display list is held
    /// by the history, the frame in flight and the caller (four cover them).
    @exclusivity(unchecked) private var handedOut: [[DrawItem]] = []
    /// Emptied lists, their storage kept.
    @exclusivity(unchecked) private var free: [[DrawItem]] = []
    static let kept = 4

    /// Lists nothing else holds now are emptied (their items let go) and kept for `take`. Call at
    /// the start of a build.
    func begin() {
        var i = 0
        while i < handedOut.count {
            // Moved out first: asked through the array's subscript, the list may be read into a
            // temporary copy, a second reference.
            var list = handedOut.remove(at: i)
            if list.isOnlyReferenceToStorage() {
                list.removeAll(keepingCapacity: true)
                if free.count < Self.kept { free.append(list) }
            } else {
                handedOut.insert(list, at: i)
                i += 1
            }
        }
    }

    /// An empty list with room for `capacity` items.
    func take(capacity: Int) -> [DrawItem] {
        var list = free.popLast() ?? []
        list.reserveCapacity(capacity)
        return list
    }

    /// Keeps a reference to the list a build returns (the oldest kept beyond `kept` is let go).
    func handOut(_ list: [DrawItem]) {
        handedOut.append(list)
        if handedOut.count > Self.kept { handedOut.removeFirst() }
    }
}
