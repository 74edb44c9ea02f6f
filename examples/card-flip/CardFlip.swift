// A 3D card flip: a card turns over about its vertical axis in perspective, showing its back;
// the faces hide when they face away (`doubleSided` false). Run: swift run example-card-flip
import StrataCLI

@main
struct CardFlip: StrataScript {
    var scene: Scene {
        Scene(size: CGSize(width: 960, height: 540), frameRate: 30, duration: 3, background: .hex("#1F2328")) {
            TransformGroup {
                Layer {
                    Text("FRONT").font("DejaVu Sans Bold", size: 56).foreground(.white).center()
                }
                .frame(width: 360, height: 240).cornerRadius(24).background(.hex("#8250DF"))
                .property("doubleSided", false)
                Layer {
                    Text("BACK").font("DejaVu Sans Bold", size: 56).foreground(.hex("#1F2328")).center()
                }
                .frame(width: 360, height: 240).cornerRadius(24).background(.hex("#FFD33D"))
                .property("doubleSided", false)
                .rotation3D(.degrees(180), axis: (0, 1, 0))
            }
            .frame(width: 360, height: 240)
            .center()
            .set(.transform, { var t = CATransform3DIdentity; t.m34 = -1 / 900; return t }())
            .animate(.rotationY, from: .degrees(0), to: .degrees(180), duration: 1.4,
                     timing: .spring(duration: 1.2, bounce: 0.15), delay: 0.6)
        }
    }
}
