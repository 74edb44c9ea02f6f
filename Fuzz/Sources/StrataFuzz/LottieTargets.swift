// The Lottie target: bytes read as a Lottie file (JSON, .tgs gzip or .lottie zip, recognised by
// content), compiled to layers and one small frame drawn.
import Foundation
import Strata
import StrataLottie

enum FuzzLottie {
    static func run(_ data: Data) {
        let url = Scratch.file("anim.json", data)
        var limits = LottieLimits()
        limits.fileBytes = 1 << 20
        limits.samples = 200_000
        guard let layer = try? LottieLayer(contentsOf: url, limits: limits), let a = layer.animation else { return }
        let longest = max(a.width, a.height)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: a.width, height: a.height)
        root.addSublayer(layer)
        let scene = Scene(rootLayer: root, size: CGSize(width: a.width, height: a.height), frameRate: a.frameRate,
                          duration: max(a.duration, 1 / a.frameRate))
        // At most 48 px across, to keep executions fast.
        scene.contentsScale = CGFloat(min(1, 48 / longest))
        _ = try? scene.renderFrame(at: a.duration / 2)
    }
}
