// Seed 004 3.2 CATextLayer — UILabel的替代品: a UILabel subclass backed by a CATextLayer that
// mirrors text, textColor and font into the layer.
import Strata

class LayerLabel: UILabel {
    override class var layerClass: AnyClass {
        // this makes our label create a CATextLayer
        // instead of a regular CALayer for its backing layer
        return CATextLayer.self
    }

    var textLayer: CATextLayer {
        return self.layer as! CATextLayer
    }

    func setUp() {
        // set defaults from UILabel settings
        self.text = self.text
        self.textColor = self.textColor
        self.font = self.font

        // we should really derive these from the UILabel settings too
        // but that's complicated, so for now we'll just hard-code them
        self.textLayer.alignmentMode = .justified
        self.textLayer.isWrapped = true
        self.layer.display()
    }

    override init(frame: CGRect) {
        // called when creating label programmatically
        super.init(frame: frame)
        self.setUp()
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override func awakeFromNib() {
        // called when creating label using Interface Builder
        self.setUp()
    }

    override var text: String? {
        get { return super.text }
        set {
            super.text = newValue
            // set layer text
            self.textLayer.string = newValue
        }
    }

    override var textColor: UIColor! {
        get { return super.textColor }
        set {
            super.textColor = newValue
            // set layer text color
            self.textLayer.foregroundColor = newValue.cgColor
        }
    }

    override var font: UIFont! {
        get { return super.font }
        set {
            super.font = newValue
            // set layer font
            let fontName = newValue.fontName as CFString
            let fontRef = CGFont(fontName)
            self.textLayer.font = fontRef
            self.textLayer.fontSize = newValue.pointSize
        }
    }
}

// MARK: - Strata harness (not part of the port)

/// A 280×120 LayerLabel with a long text in dark grey, 17 pt system font, justified and wrapped.
func makeSeed4LayerLabelScene() -> Scene {
    let host = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 160))
    host.backgroundColor = UIColor.white
    let label = LayerLabel(frame: CGRect(x: 20, y: 20, width: 280, height: 120))
    label.text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Quisque massa arcu, eleifend vel varius in, facilisis pulvinar leo."
    label.textColor = UIColor.darkGray
    label.font = UIFont.systemFont(ofSize: 17)
    host.addSubview(label)
    return Scene(rootLayer: host.layer, size: host.bounds.size, frameRate: 30, duration: 1)
}
