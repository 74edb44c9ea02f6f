// Seed 001 图像IO 11. 把整张图片绘制到CGContext: load and redraw (force-decode) each cell's image on a
// background queue, then set it on the main queue if the cell still shows the same row.
import Strata

// Port note (completion): the note's block sits inside collectionView(_:cellForItemAt:) of the
// book's photo carousel; the surrounding controller is completed minimally (one image view per
// cell, tagged 99, `imagePaths` from the bundle's "Vacation Photos" folder).
class AsyncImageCollectionViewController: UICollectionViewController {
    var imagePaths: [String] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        self.imagePaths = Bundle.main.paths(forResourcesOfType: "png", inDirectory: "Vacation Photos")
        self.collectionView.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "Cell")
    }

    override func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        return self.imagePaths.count
    }

    override func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "Cell", for: indexPath)
        let imageTag = 99
        var imageView = cell.viewWithTag(imageTag) as? UIImageView
        if imageView == nil {
            imageView = UIImageView(frame: cell.contentView.bounds)
            imageView!.tag = imageTag
            cell.contentView.addSubview(imageView!)
        }
        let imageView2 = imageView!
        cell.tag = indexPath.row
        imageView2.image = nil

        // — the note's block —
        DispatchQueue.global(qos: .utility).async {
            // load image
            let index = indexPath.row
            let imagePath = self.imagePaths[index]
            var image = UIImage(contentsOfFile: imagePath)
            // redraw image using device context
            UIGraphicsBeginImageContextWithOptions(imageView2.bounds.size, true, 0)
            image?.draw(in: imageView2.bounds)
            image = UIGraphicsGetImageFromCurrentImageContext()
            UIGraphicsEndImageContext()
            // set image on main thread, but only if index still matches up
            DispatchQueue.main.async {
                if index == cell.tag {
                    imageView2.image = image
                }
            }
        }
        return cell
    }
}

// MARK: - Strata harness (not part of the port)

/// A collection view with 100×100 cells (flow layout); cells are blank at t = 0 and show their
/// photos once the queued work has run (the frame at t = 1 expects every visible cell filled).
func makeSeed1AsyncImageRedrawScene() -> Scene {
    let layout = UICollectionViewFlowLayout()
    layout.itemSize = CGSize(width: 100, height: 100)
    let vc = AsyncImageCollectionViewController(collectionViewLayout: layout)
    let root = vc.view.layer
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1.5)
}
