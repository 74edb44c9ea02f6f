// Seed 001 图像IO 11. 图片加载 ImageIO: decoding an image at load time with
// kCGImageSourceShouldCache, instead of lazily at first draw.
import Strata

// Port note (completion): the note's block is the body of a loader; `path` becomes its parameter.
// CGImageRelease/CFRelease are not needed in Swift (Core Foundation objects are managed).
func loadImageWithImageIO(path: String) -> UIImage {
    let imageURL = URL(fileURLWithPath: path)
    let options = [kCGImageSourceShouldCache: true] as CFDictionary
    let source = CGImageSourceCreateWithURL(imageURL as CFURL, nil)!
    let imageRef = CGImageSourceCreateImageAtIndex(source, 0, options)!
    let image = UIImage(cgImage: imageRef)
    return image
}

// MARK: - Strata harness (not part of the port)

/// A 200×200 layer showing "Snowman.png" loaded through ImageIO (same picture as UIImage(named:)).
func makeSeed1ImageIOScene() -> Scene {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
    let path = Bundle.main.path(forResource: "Snowman", ofType: "png")!
    root.contents = loadImageWithImageIO(path: path).cgImage
    return Scene(rootLayer: root, size: root.bounds.size, frameRate: 30, duration: 1)
}
