import Strata

let scene = Scene(size: .hd720, duration: 3, background: .hex("#101820")) {
    VStack(spacing: 16) {
        HStack(spacing: 4) { for c in "STRATA" { Text(String(c)).font("DejaVu Sans Bold", size: 144).foreground(.white) } }
            .stagger(0.08) { $0.slideIn(from: .bottom, distance: 60, duration: 0.6) }
        Text("Core Animation, rendered to video").font("DejaVu Sans", size: 40).foreground(.hex("#9AA5B1")).fadeIn(delay: 0.9)
        Shape(.roundedRect(CGRect(x: 0, y: 0, width: 360, height: 10), cornerRadius: 5)).fill(.hex("#FF5A36"))
            .animate(.scaleX, from: 0, to: 1, duration: 0.8, timing: .named(.easeOutCubic), delay: 1.2)
    }.center()
}
try scene.export(to: URL(fileURLWithPath: "title-card.mp4"))
