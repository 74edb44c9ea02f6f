// Stage 2a of a frame: content. A display-list build meets backing stores and rasterised subtrees
// that are not in the caches yet; rather than rasterise each where it meets it (one after the
// other, inside the walk), the frame's build records them as requests and goes on. The content
// stage then rasterises all of them at once as jobs on the renderer's dispatcher (the worker pool,
// no thread of its own), stores them in the caches, and the frame is built again, finding every
// one. A frame whose content is all cached (most frames of an animation: moving, rotating or
// fading a layer reuses its backing store) is built once. Tiled layers' tiles are drawn as jobs
// on the same dispatcher by the build itself (TiledLayerItems.swift), and shapes drawn straight
// into the tiles are the tile stage's first jobs (ShapeJobs.swift).
//
// Same bytes as rasterising inline: a request is rasterised by the same function, into the same
// cache entry, and the second build reads them as the single build did.
import Foundation
import Synchronization
import StrataCore

/// What a display-list build asked for instead of rasterising: backing stores and subtrees that
/// were not cached, each once.
final class ContentRequests: Sendable {
    enum Request: Sendable {
        /// A layer's content (RenderCaches.raster(for:layerBounds:scale:)).
        case backingStore(LayerContent, layerBounds: CGRect, scale: Double)
        /// A `shouldRasterize` subtree, drawn by `make` (RenderCaches.subtree(_:scale:make:)).
        case subtree(LayerSnapshot, scale: Double, make: @Sendable () -> RasterizedContent?)
    }
    private struct State {
        var list: [Request] = []
        var backingStores = Set<RenderCaches.Key>()
        var subtrees = Set<RenderCaches.SubtreeKey>()
    }
    // A build runs on one thread, but tiled layers' tile jobs may build nested lists on others.
    private let state = Mutex(State())

    /// Whether nothing was asked for.
    var isEmpty: Bool { state.withCheckedLock { $0.list.isEmpty } }

    /// The requests, in the order they were first made.
    var list: [Request] { state.withCheckedLock { $0.list } }

    /// Asks for a layer content's backing store (once however often it is asked for).
    func add(backingStore content: LayerContent, layerBounds: CGRect, scale: Double) {
        state.withCheckedLock { s in
            if s.backingStores.insert(RenderCaches.Key(content: content, layerBounds: layerBounds, scale: scale)).inserted {
                s.list.append(.backingStore(content, layerBounds: layerBounds, scale: scale))
            }
        }
    }

    /// Asks for a rasterised subtree (once however often it is asked for).
    func add(subtree: LayerSnapshot, scale: Double, make: @escaping @Sendable () -> RasterizedContent?) {
        state.withCheckedLock { s in
            if s.subtrees.insert(RenderCaches.SubtreeKey(subtree: subtree, scale: scale)).inserted {
                s.list.append(.subtree(subtree, scale: scale, make: make))
            }
        }
    }
}

/// The content stage: a frame's display list with every backing store and rasterised subtree it
/// needs made first, in parallel.
enum ContentStage {
    /// Builds `root`'s display list with `builder`; when the build met content not in the caches,
    /// rasterises all of it as jobs on `dispatcher` and builds again. Also returns how many
    /// backing stores and subtrees were made (0: built once).
    static func displayList(of root: LayerSnapshot, builder: DisplayListBuilder,
                            dispatcher: any Dispatcher) -> (list: DisplayList, made: Int) {
        var building = builder
        building.dispatcher = dispatcher
        var asking = building
        let requests = ContentRequests()
        asking.contentRequests = requests
        let list = asking.build(root)
        let made = requests.list
        if made.isEmpty { return (list, 0) }
        resolve(made, into: builder.cache, on: dispatcher)
        return (building.build(root), made.count)
    }

    /// Rasterises `requests` into `cache`, a job each.
    static func resolve(_ requests: [ContentRequests.Request], into cache: RenderCaches, on dispatcher: any Dispatcher) {
        dispatcher.run(requests.count, Jobs(requests: requests, cache: cache))
    }

    private struct Jobs: StageJobs {
        let requests: [ContentRequests.Request]
        let cache: RenderCaches

        func run(_ job: Int) {
            switch requests[job] {
            case let .backingStore(content, layerBounds, scale):
                if cache.raster(for: content, layerBounds: layerBounds, scale: scale) == nil {
                    cache.noteNothingToDraw(content, layerBounds: layerBounds, scale: scale)
                }
            case let .subtree(snapshot, scale, make):
                _ = cache.subtree(snapshot, scale: scale, make: make)
            }
        }
    }
}
