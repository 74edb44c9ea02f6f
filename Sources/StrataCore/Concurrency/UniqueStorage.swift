// Whether an array is the only holder of its storage, for the caches that take up the storage of
// lists handed out earlier (a frame's snapshot sublayer lists, display-list items, frame buffers)
// once nothing else holds them. Storage in use elsewhere is never touched: the check reads the
// storage's reference count, and a list that is not the only holder is not reused.

extension Array {
    /// Whether this array is the only reference to its storage. An array is a single reference to
    /// its native storage object, so `isKnownUniquelyReferenced` can ask through the same memory,
    /// typed as a class of ours (it reads the object's reference count, whatever its class; typed
    /// as `AnyObject`, Swift 6 opens the existential into a copy, a second reference). Where that
    /// layout did not hold, every array counts as shared (and its storage is not reused). An empty
    /// array counts as shared too (it may have no storage of its own).
    package mutating func isOnlyReferenceToStorage() -> Bool {
        guard MemoryLayout<[Element]>.size == MemoryLayout<ArrayStorageReference>.size, !isEmpty else { return false }
        return withUnsafeMutablePointer(to: &self) { p in
            UnsafeMutableRawPointer(p).withMemoryRebound(to: ArrayStorageReference.self, capacity: 1) {
                isKnownUniquelyReferenced(&$0.pointee)
            }
        }
    }
}

/// The type an array's storage reference is read as (never instantiated).
private final class ArrayStorageReference {}
