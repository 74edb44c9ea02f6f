import Strata

let values = [42.0, 68, 55, 91, 76]
let scene = Scene(size: .hd720, duration: 3, background: .white) {
    HStack(alignment: .bottom, spacing: 48) { for v in values { Layer().frame(width: 120, height: 4 * v).background(.hex("#0969DA")) } }
        .stagger(0.15) { $0.anchorPoint(x: 0.5, y: 1).animate(.scaleY, from: 0, to: 1, timing: .spring) }
        .pin(.bottom, inset: 60)
}
try scene.export(to: URL(fileURLWithPath: "bar-chart.mp4"))
