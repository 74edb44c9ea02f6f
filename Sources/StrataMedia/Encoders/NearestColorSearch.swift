import Foundation

/// Nearest-colour search in Oklab: colours sorted by lightness, searched outwards from the
/// query's lightness until the lightness gap alone exceeds the best distance found.
struct NearestColorSearch {
    private let lightness: [Float]
    private let a: [Float]
    private let b: [Float]
    private let ids: [Int]

    init(colors: [(Float, Float, Float)]) {
        let order = colors.indices.sorted { (colors[$0].0, $0) < (colors[$1].0, $1) }
        lightness = order.map { colors[$0].0 }
        a = order.map { colors[$0].1 }
        b = order.map { colors[$0].2 }
        ids = order
    }

    /// The index (in the colours given to `init`) of the colour nearest to (l, a, b).
    func nearest(_ l: Float, _ qa: Float, _ qb: Float) -> Int {
        lightness.withUnsafeBufferPointer { L in
            a.withUnsafeBufferPointer { A in
                b.withUnsafeBufferPointer { B in
                    let n = L.count
                    var lo = 0, hi = n
                    while lo < hi {
                        let mid = (lo + hi) / 2
                        if L[mid] < l { lo = mid + 1 } else { hi = mid }
                    }
                    var best = Float.infinity
                    var bestIndex = 0
                    var up = lo, down = lo - 1
                    while up < n || down >= 0 {
                        if up < n {
                            let dl = L[up] - l
                            if dl * dl >= best { up = n } else {
                                let d = dl * dl + (A[up] - qa) * (A[up] - qa) + (B[up] - qb) * (B[up] - qb)
                                if d < best || (d == best && ids[up] < ids[bestIndex]) { best = d; bestIndex = up }
                                up += 1
                            }
                        }
                        if down >= 0 {
                            let dl = l - L[down]
                            if dl * dl >= best { down = -1 } else {
                                let d = dl * dl + (A[down] - qa) * (A[down] - qa) + (B[down] - qb) * (B[down] - qb)
                                if d < best || (d == best && ids[down] < ids[bestIndex]) { best = d; bestIndex = down }
                                down -= 1
                            }
                        }
                    }
                    return ids[bestIndex]
                }
            }
        }
    }
}
