// The least-recently-used cache of the renderer and the decoders (backing stores, rasterised
// subtrees, tiled-layer tiles, decoded images). Entries sit in a dictionary and on a doubly
// linked list threaded through one array (most recently used first), so a lookup, an insertion and
// the eviction of the least recently used entry are O(1): eviction takes the list's tail instead of
// scanning every entry for the oldest. Each entry also carries the generation (a frame) it was last
// used in, so a per-frame cache can drop what neither this frame nor the one before used — again
// from the tail, since the list is ordered by use. Not locked: its owner keeps it behind its lock.
// Not for the per-frame caches of the draw path (shaped text, gradient ramps: RecentEntries in
// StrataRender): used from another module it runs unspecialised, and dropping a frame's entries
// through generic code cost 1 % of a motion frame (measured with callgrind).

/// A byte-bounded LRU cache: values with their cost in bytes, least recently used first out.
package struct LRUCache<Key: Hashable, Value> {
    private struct Node {
        var key: Key?
        var value: Value?
        var bytes: Int
        var generation: Int
        /// The neighbours on the list (indices into `nodes`; -1 at an end).
        var newer: Int, older: Int
    }
    private var nodes: [Node] = []
    private var slots: [Key: Int] = [:]
    /// Slots of `nodes` given back by removed entries.
    private var free: [Int] = []
    private var newest = -1, oldest = -1
    /// The bytes of the entries held.
    package private(set) var bytes = 0
    /// The generation an entry used now is stamped with (`endGeneration` starts the next).
    package private(set) var generation = 0

    package init() {}

    /// The number of entries.
    package var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used entry; nil on a miss.
    package mutating func value(for key: Key) -> Value? {
        guard let i = slots[key] else { return nil }
        touch(i)
        return nodes[i].value
    }

    /// Keeps `value` for `key` as the most recently used entry, costing `bytes` (replacing the
    /// entry of the same key).
    package mutating func insert(_ value: Value, for key: Key, bytes cost: Int = 0) {
        if let i = slots[key] {
            bytes += cost - nodes[i].bytes
            nodes[i].value = value
            nodes[i].bytes = cost
            touch(i)
            return
        }
        let node = Node(key: key, value: value, bytes: cost, generation: generation, newer: -1, older: newest)
        let i: Int
        if let slot = free.popLast() { nodes[slot] = node; i = slot } else { nodes.append(node); i = nodes.count - 1 }
        if newest >= 0 { nodes[newest].newer = i } else { oldest = i }
        newest = i
        slots[key] = i
        bytes += cost
    }

    /// Removes the entry of `key`, returning its value.
    @discardableResult
    package mutating func removeValue(for key: Key) -> Value? {
        slots[key].map { remove($0) }
    }

    /// Removes every entry.
    package mutating func removeAll() {
        nodes.removeAll(); slots.removeAll(); free.removeAll()
        newest = -1; oldest = -1; bytes = 0
    }

    /// Evicts entries, least recently used first, until at most `capacity` bytes are held,
    /// skipping those `spared` names (the ones a caller is about to use). Visits only the entries
    /// it evicts or spares.
    package mutating func evict(toFit capacity: Int, sparing spared: (Key) -> Bool = { _ in false }) {
        var i = oldest
        while bytes > capacity, i >= 0 {
            let newer = nodes[i].newer
            if !spared(nodes[i].key!) { _ = remove(i) }
            i = newer
        }
    }

    /// Ends a generation: drops the entries used in neither it nor the one before (least recently
    /// used first, each value handed to `dropped`), then starts the next generation.
    package mutating func endGeneration(dropped: (consuming Value) -> Void = { _ in }) {
        while oldest >= 0, nodes[oldest].generation < generation - 1 { dropped(remove(oldest)) }
        generation += 1
    }

    /// The keys from the most to the least recently used, after checking the list, the
    /// dictionary and the byte count agree (tests).
    package func testOnly_verifyInvariants() -> [Key] {
        var keys: [Key] = [], total = 0, previous = -1, i = newest
        while i >= 0 {
            let n = nodes[i]
            precondition(n.newer == previous && slots[n.key!] == i, "LRUCache: broken link at \(i)")
            precondition(previous < 0 || nodes[previous].generation >= n.generation, "LRUCache: generations out of order")
            keys.append(n.key!); total += n.bytes; previous = i; i = n.older
        }
        precondition(previous == oldest && keys.count == slots.count && total == bytes, "LRUCache: list and dictionary differ")
        return keys
    }

    /// Makes entry `i` the most recently used, stamped with this generation.
    private mutating func touch(_ i: Int) {
        nodes[i].generation = generation
        guard i != newest else { return }
        unlink(i)
        nodes[i].older = newest; nodes[i].newer = -1
        nodes[newest].newer = i
        newest = i
    }

    private mutating func unlink(_ i: Int) {
        let newer = nodes[i].newer, older = nodes[i].older
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
    }

    private mutating func remove(_ i: Int) -> Value {
        unlink(i)
        slots[nodes[i].key!] = nil
        bytes -= nodes[i].bytes
        let value = nodes[i].value!
        nodes[i].key = nil; nodes[i].value = nil
        free.append(i)
        return value
    }
}
