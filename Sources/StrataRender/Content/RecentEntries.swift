// The entries of a per-frame cache kept while they are used (TextShaper's shaped text,
// GradientRamps' ramps): each remembers the frame it was last used in, and the end of a frame
// drops those used in neither it nor the frame before, so content that changes every frame does
// not pile up and content shown every frame stays.

/// A cache's entries by key, with the frames they were last used in. Not locked: its owner keeps
/// it behind its own lock.
struct RecentEntries<Key: Hashable, Value> {
    private var entries: [Key: (value: Value, frame: Int)] = [:]
    private var frame = 0
    /// The keys `endFrame` drops (empty between calls; its capacity is kept: a filtered copy of
    /// the dictionary was an allocation every frame whose content changed).
    private var expired: [Key] = []

    /// The value for `key`, marked used in this frame; nil on a miss.
    mutating func use(_ key: Key) -> Value? {
        guard let e = entries[key] else { return nil }
        if e.frame != frame { entries[key] = (e.value, frame) }
        return e.value
    }

    /// Keeps `value` for `key`, used in this frame.
    mutating func insert(_ value: Value, for key: Key) { entries[key] = (value, frame) }

    /// Ends the frame: drops the entries used in neither it nor the one before, in place, handing
    /// each dropped value to `dropped`.
    mutating func endFrame(dropped: (consuming Value) -> Void = { _ in }) {
        let keep = frame - 1
        for (key, entry) in entries where entry.frame < keep { expired.append(key) }
        for key in expired { if let e = entries.removeValue(forKey: key) { dropped(e.value) } }
        expired.removeAll(keepingCapacity: true)
        frame += 1
    }
}
