// Stage 2b of a frame, its jobs: each vector shape of the display list, once. A shape the list
// reaches twice (a layer's content and its shadow's source) must not be rasterised by two workers
// at once (ThreadSanitizer found the two writing its cells together), so the shapes are claimed on
// the rendering thread before the stage starts (VectorShape.claimForRasterization). The shapes of
// top-level items — nearly all — are named by their items' positions, in a pooled buffer, so that
// collecting a frame's shapes allocates nothing; shapes nested in groups, masks, shadows, mixes and
// 3D contexts are kept in an array.

/// The shapes of a display list that no job had been given yet, claimed for this frame's jobs.
struct ShapeJobs: Sendable {
    /// Positions in the list of the top-level items holding a claimed shape (first `topLevel`).
    private var positions: [Int32]
    private var topLevel = 0
    /// Claimed shapes inside other items.
    private var nested: [VectorShape] = []

    /// Claims the shapes of `list` no job was given yet, top-level items' first.
    init(claimingShapesOf list: DisplayList) {
        positions = BufferPool<Int32>.shared.take(TileRenderer.pooledLength(list.items.count))
        for i in list.items.indices {
            switch list.items[i].op {
            case .vector(let shape, _):
                if shape.claimForRasterization() { positions[topLevel] = Int32(i); topLevel += 1 }
            case .fill, .ring, .image, .gradient, .glyphs:
                break
            case .group, .mix, .depthComposite, .shadow:
                list.items[i].forEachVectorShape { if $0.claimForRasterization() { nested.append($0) } }
            }
        }
    }

    /// The number of jobs.
    var count: Int { topLevel + nested.count }

    /// The shape of job `job` (0 ..< count) of `list`, the list the jobs were made for.
    func shape(_ job: Int, of list: DisplayList) -> VectorShape {
        if job < topLevel, case .vector(let shape, _) = list.items[Int(positions[job])].op { return shape }
        return nested[job - topLevel]
    }

    /// Every job's shape, in order (for tests).
    func shapes(of list: DisplayList) -> [VectorShape] { (0..<count).map { shape($0, of: list) } }

    /// Gives the positions' buffer back to the pool; the jobs are empty afterwards.
    mutating func release() {
        BufferPool<Int32>.shared.give(&positions)
        topLevel = 0
        nested = []
    }
}
