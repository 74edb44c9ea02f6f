// The chain of modifiers each path goes through, and trim paths "individually" (`m` 2, the
// spec's sequential mode), the one modifier that needs other paths: the paths it changes are
// taken one after the other in list order, depth first (the order lottie-web trims them in),
// and its start and end are fractions of their total length. Before a shape layer's items
// are compiled, a first pass finds every path under each such trim and how to make its
// contours as they reach the trim (after the modifiers nearer to it); at each frame the trim
// measures all of them (once a frame, cached) to know which part of the whole each path holds.
// A merge paths (modes 2…5) ends the chain of the paths above it: the modifiers below it change
// its outline instead.
import Foundation
import Strata

/// A modifier below a path: its JSON path names it (a sequential trim's paths are found by it).
struct ModifierLink {
    let modifier: LottiePathModifier
    let path: String
    /// The values of the modifier's properties whose expressions apply, by key.
    var scripted: [String: (Double) -> [Double]] = [:]
    var isSequentialTrim: Bool { if case .trim(_, _, _, true) = modifier { true } else { false } }
    /// Whether its numbers change over time (keyframes or an expression).
    var isAnimated: Bool { modifier.isAnimated || !scripted.isEmpty }
    /// The trim's kept ranges at frame `f` (LottiePathModifier.trimRanges).
    func trimRanges(at f: Double) -> [(Double, Double)]? { modifier.trimRanges(at: f, scripted: scripted) }
    /// The contours changed at frame `f` (LottiePathModifier.apply).
    func apply(_ contours: [LottieBezier], at f: Double) -> [LottieBezier] { modifier.apply(contours, at: f, scripted: scripted) }
}

/// The paths one sequential trim spans, in order, each as its contours before the trim.
final class SequentialTrim {
    struct Member {
        let contours: (Double) -> [LottieBezier]
        let isAnimated: () -> Bool
    }
    private(set) var members: [Member] = []
    /// The index of each member by its item's JSON path.
    private(set) var index: [String: Int] = [:]
    private var cache: (frame: Double, lengths: [[Double]])?

    func add(_ path: String, _ member: Member) {
        guard index[path] == nil else { return }
        index[path] = members.count
        members.append(member)
    }

    /// Every member's contour lengths at frame `f`.
    func lengths(at f: Double) -> [[Double]] {
        if let c = cache, c.frame == f { return c.lengths }
        let lengths = members.map { $0.contours(f).map(\.length) }
        cache = (f, lengths)
        return lengths
    }

    /// Member `k`'s contours (those it has before the trim) trimmed to its part of the whole.
    func trim(_ k: Int, _ contours: [LottieBezier], ranges: [(Double, Double)], at f: Double) -> [LottieBezier] {
        let lengths = lengths(at: f)
        let total = lengths.joined().reduce(0, +)
        guard total > 0, k < lengths.count, lengths[k].count == contours.count else { return contours.compactMap { $0.trimmed(ranges) } }
        var from = lengths[..<k].joined().reduce(0, +)
        var out: [LottieBezier] = []
        for (c, length) in zip(contours, lengths[k]) {
            let local = LottieTrimValues.local(ranges, from: from, to: from + length, total: total)
            from += length
            if local.count == 1 && local[0].0 <= 0 && local[0].1 >= 1 { out.append(c) } else if let t = c.trimmed(local) { out.append(t) }
        }
        return out
    }
}

/// The sequential trims of one shape layer, by their item's JSON path, and the first limit a
/// merge paths passed (thrown once the layer's shapes are compiled).
final class ModifierChains {
    var trims: [String: SequentialTrim] = [:]
    private(set) var failure: LottieError?

    /// Records `error` unless one is recorded already.
    func fail(_ error: LottieError) {
        if failure == nil { failure = error }
    }

    /// The contours after `links`, in order, for the path item at `member`.
    func apply(_ links: ArraySlice<ModifierLink>, _ contours: [LottieBezier], at f: Double, member: String) -> [LottieBezier] {
        links.reduce(contours) { c, link in
            if link.isSequentialTrim, let trim = trims[link.path], let k = trim.index[member] {
                guard let ranges = link.trimRanges(at: f) else { return c }
                return trim.trim(k, c, ranges: ranges, at: f)
            }
            return link.apply(c, at: f)
        }
    }

    /// Whether `links` change over time for the path item at `member` (a sequential trim does
    /// when any of its paths does).
    func isAnimated(_ links: ArraySlice<ModifierLink>, member: String) -> Bool {
        links.contains { link in
            link.isAnimated || (link.isSequentialTrim && (trims[link.path]?.members.contains { $0.isAnimated() } ?? false))
        }
    }
}

extension LottieCompiler {
    /// The modifiers among `items`, in list order (the nearest to the paths above them first),
    /// each with its index, named by their JSON paths under `path`.
    func modifierLinks(_ items: [LottieShapeItem], path: String) -> [(index: Int, link: ModifierLink)] {
        items.indices.compactMap { j in
            guard case .modifier(let m) = items[j] else { return nil }
            var link = ModifierLink(modifier: m, path: "\(path)[\(j)]")
            // The properties with expressions, sampled through them.
            for (key, value) in m.properties {
                let p = "\(link.path).\(key)"
                if animation.expressions.contains(p) || animation.loops[p] != nil { link.scripted[key] = sampler(value, path: p).value }
            }
            return (j, link)
        }
    }

    /// The modifiers below item `i` (`links` from `modifierLinks`), then `inherited`; with
    /// `until` (a merge paths below the item, which takes the item's paths in), only those above it.
    static func links(below i: Int, _ links: [(index: Int, link: ModifierLink)], _ inherited: [ModifierLink], until: Int? = nil) -> [ModifierLink] {
        let within = links.filter { $0.index > i && $0.index < (until ?? Int.max) }.map(\.link)
        return until == nil ? within + inherited : within
    }

    /// The indices of the merge paths among `items` that compute an outline (modes 2…5): each
    /// takes in the paths above it, which the modifiers below it then no longer change.
    static func mergeIndices(_ items: [LottieShapeItem]) -> [Int] {
        items.indices.filter { i in
            guard case .merge(let mode) = items[i] else { return false }
            return mode != .merge
        }
    }

    /// The first pass: registers every path under each sequential trim, in list order, depth
    /// first, with its contours as they reach the trim.
    func registerSequentialTrims(_ items: [LottieShapeItem], inherited: [ModifierLink], path: String, into chains: ModifierChains) {
        let links = modifierLinks(items, path: path)
        let merges = Self.mergeIndices(items)
        for (i, item) in items.enumerated() {
            let itemPath = "\(path)[\(i)]"
            let below = Self.links(below: i, links, inherited, until: merges.first { $0 > i })
            switch item {
            case .group(let sub, _):
                registerSequentialTrims(sub, inherited: below, path: itemPath + ".it", into: chains)
            case .rectangle, .ellipse, .path, .polystar:
                guard let source = source(item, path: itemPath) else { continue }
                for (p, link) in below.enumerated() where link.isSequentialTrim {
                    let trim = chains.trims[link.path] ?? SequentialTrim()
                    chains.trims[link.path] = trim
                    let nearer = below[..<p]
                    trim.add(itemPath, SequentialTrim.Member(
                        contours: { [unowned chains] f in chains.apply(nearer, source.contours(f), at: f, member: itemPath) },
                        isAnimated: { [unowned chains] in source.isAnimated || chains.isAnimated(nearer, member: itemPath) }))
                }
            default:
                break
            }
        }
    }
}
