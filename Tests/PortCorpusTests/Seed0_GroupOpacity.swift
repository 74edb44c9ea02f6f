// Seed 000 §3.2 组透明 (group opacity): turning group opacity off for one layer.
import Strata

// Port note (completion): the note shows only `v1.layer.allowsGroupOpacity = NO;`. The host below
// builds the situation the note's figure shows: a half-transparent view with an opaque subview
// partly overlapping a background, once with group opacity (left) and once without (right).
class GroupOpacityViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = UIColor.white

        let v0 = UIView(frame: CGRect(x: 20, y: 100, width: 150, height: 60))
        v0.backgroundColor = UIColor.blue
        v0.alpha = 0.5
        let label0 = UIView(frame: CGRect(x: 20, y: 15, width: 110, height: 30))
        label0.backgroundColor = UIColor.white
        v0.addSubview(label0)
        view.addSubview(v0)

        let v1 = UIView(frame: CGRect(x: 200, y: 100, width: 150, height: 60))
        v1.backgroundColor = UIColor.blue
        v1.alpha = 0.5
        let label1 = UIView(frame: CGRect(x: 20, y: 15, width: 110, height: 30))
        label1.backgroundColor = UIColor.white
        v1.addSubview(label1)
        view.addSubview(v1)

        // Turn group opacity off for this view only.
        v1.layer.allowsGroupOpacity = false
    }
}

// MARK: - Strata harness (not part of the port)

func makeSeed0GroupOpacityScene() -> Scene {
    let vc = GroupOpacityViewController()
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
