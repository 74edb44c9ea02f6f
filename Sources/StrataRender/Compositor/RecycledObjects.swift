// A shape layer's fill or stroke (VectorShape) and a text run's placed glyphs (PlacedGlyphs) are
// objects the display-list builder makes anew each frame their content changes: in the motion
// scene, 50 shapes and 20 runs a frame, each an allocation and more (a run's two arrays). The
// builder makes them through this record instead: it keeps every object it handed out, and an
// object that nothing else holds any more — its display list, and the frames in flight or kept for
// comparison that held that list, are gone — is set up again for the next one asked for. A free
// object gives back at once what pools keep (a shape's strips), as its end would, and keeps the
// storage of its own arrays. Whether an object is free is its reference count
// (`isKnownUniquelyReferenced`), read only by the build that owns the record, after every other
// holder let go: an object is never changed while a tile worker can read it.
//
// Which object comes back for which item does not show in a frame: each is set up whole from
// what the builder asks for (each kind's set-up does what its `init` does).

/// An object RecycledObjects keeps.
protocol Recyclable: AnyObject {
    /// Lets go of what the object holds for its use (buffers back to their pools, masks), as its
    /// end would: called when nothing else holds it, so that a free object keeps no more memory
    /// than its own.
    func becameFree()
}

/// Objects of one kind that display-list builds handed out, and those free to be set up again.
/// Used by one build at a time: the builder takes it, in its BuildRecords, out of its
/// `RenderCaches` for a build and puts it back after.
// @unchecked: mutable, but only ever in the hands of one build (as RepeatedOps).
final class RecycledObjects<Object: Recyclable>: @unchecked Sendable {
    /// Objects handed out and held elsewhere when last looked at, oldest first.
    @exclusivity(unchecked) private var handedOut: [Object] = []
    /// Objects nobody else holds.
    @exclusivity(unchecked) private var free: [Object] = []
    /// Objects kept at most in each list (frames hold a few hundred; more are let go).
    let limit: Int

    init(limit: Int = 4096) { self.limit = limit }

    /// The objects handed out that nothing else holds now become free. Call at the start of a
    /// build.
    func begin() {
        var kept = 0
        for i in handedOut.indices {
            if isKnownUniquelyReferenced(&handedOut[i]) {
                handedOut[i].becameFree()
                if free.count < limit { free.append(handedOut[i]) }
            } else {
                // Still held (in order: the objects before `i` from `kept` on were all free).
                handedOut.swapAt(kept, i)
                kept += 1
            }
        }
        handedOut.removeSubrange(kept...)
        if handedOut.count > limit { handedOut.removeFirst(handedOut.count - limit) }
    }

    /// A free object set up by `setUp`, or else one `make` makes; handed out either way.
    @inline(__always)
    func object(settingUp setUp: (Object) -> Void, else make: () -> Object) -> Object {
        let object: Object
        if let reused = free.popLast() {
            setUp(reused)
            object = reused
        } else {
            object = make()
        }
        handedOut.append(object)
        return object
    }

    /// Objects free, and handed out and held elsewhere (for tests).
    var counts: (free: Int, handedOut: Int) { (free.count, handedOut.count) }
}
