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

/// The Lottie expression language: the bytes (UTF-8) as the expression of a layer's rotation,
/// of a shape's position and path and of a text layer's document, in a small animation that
/// has what rigs read — a parent chain, a controller with a slider and keyframes, a shape layer
/// with a path, a marker — compiled (each expression checked, then sampled at every frame where
/// its layer shows) and one frame drawn.
enum FuzzLottieScript {
    static func run(_ data: Data) {
        guard let source = String(validating: data, as: UTF8.self),
              let encoded = try? JSONSerialization.data(withJSONObject: [source]),
              let quoted = String(data: encoded, encoding: .utf8)?.dropFirst().dropLast() else { return }
        let path = #"{"c":true,"v":[[0,0],[40,0],[40,30]],"i":[[0,0],[-5,5],[0,0]],"o":[[0,0],[5,5],[0,0]]}"#
        let json = #"{"v":"5.7.0","fr":10,"ip":0,"op":6,"w":32,"h":32,"markers":[{"cm":"a","tm":2,"dr":1}],"layers":["#
            + #"{"ty":4,"ind":1,"nm":"L","parent":2,"ip":0,"op":6,"st":0,"sr":1,"ks":{"r":{"a":0,"k":5,"x":\#(quoted)}},"#
            + #""shapes":[{"ty":"gr","nm":"G","it":[{"ty":"sh","nm":"Path 1","ks":{"a":0,"k":\#(path),"x":\#(quoted)}},"#
            + #"{"ty":"fl","nm":"Fill 1","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}},"#
            + #"{"ty":"tr","p":{"a":0,"k":[4,4],"x":\#(quoted)},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]},"#
            + #"{"ty":3,"ind":2,"nm":"Ctrl","parent":3,"ip":0,"op":6,"st":0,"sr":1,"ks":{"r":{"a":1,"k":[{"t":0,"s":[0]},{"t":5,"s":[90]}]}},"#
            + #""ef":[{"ty":5,"nm":"S","mn":"ADBE Slider Control","ef":[{"ty":0,"nm":"Slider","mn":"ADBE Slider Control-0001","v":{"a":0,"k":3}}]}]},"#
            + #"{"ty":3,"ind":3,"nm":"Root","ip":0,"op":6,"st":0,"sr":1,"ks":{"r":{"a":0,"k":12}}},"#
            + #"{"ty":5,"ind":4,"nm":"T","ip":0,"op":6,"st":0,"sr":1,"ks":{},"t":{"d":{"k":[{"s":{"s":8,"f":"F","t":"ab","j":0,"tr":0,"lh":9,"ls":0,"fc":[1,0,0]},"t":0}],"#
            + #""x":\#(quoted)},"p":{},"m":{"g":1,"a":{"a":0,"k":[0,0]}},"a":[]}}],"fonts":{"list":[{"fName":"F","fFamily":"DejaVu Sans","fStyle":"Book"}]}}"#
        guard let layer = try? LottieLayer(data: Data(json.utf8)), let a = layer.animation else { return }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: a.width, height: a.height)
        root.addSublayer(layer)
        let scene = Scene(rootLayer: root, size: CGSize(width: a.width, height: a.height), frameRate: a.frameRate,
                          duration: a.duration)
        _ = try? scene.renderFrame(at: a.duration / 2)
    }
}
