// A layer that shows its player's video (AVFoundation's `AVPlayerLayer`). It is an ordinary
// CALayer — 3D transforms, corner radius, border, mask and shadow apply — whose presentation copy
// at scene time t carries, as image contents, the frame of the player's current item whose
// presentation interval contains the player's item time at t. Frames are decoded at the size the
// layer shows them (twice its size in points × `contentsScale`, never above the video's natural
// size), so a small picture-in-picture does not convert full-size frames.
//
// A failed item (missing or corrupt file) shows `placeholderColor` (a neutral grey); exports
// stop with the item's error unless `ExportOptions.mediaFailure` asks for the placeholder.
import Foundation
import Synchronization

/// How video is fitted into a player layer's bounds.
public struct AVLayerVideoGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Fit inside the bounds, keeping the aspect ratio (the default).
    public static let resizeAspect = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspect")
    /// Fill the bounds, keeping the aspect ratio; what overflows is cropped.
    public static let resizeAspectFill = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResizeAspectFill")
    /// Stretch to the bounds.
    public static let resize = AVLayerVideoGravity(rawValue: "AVLayerVideoGravityResize")
}

/// A layer that displays a player's video.
open class AVPlayerLayer: CALayer {
    /// The player whose current item is shown.
    public var player: AVPlayer? { didSet { journal(self, \.player, oldValue) } }
    /// How the video fits the bounds; `.resizeAspect` by default.
    public var videoGravity: AVLayerVideoGravity = .resizeAspect { didSet { journal(self, \.videoGravity, oldValue) } }
    /// The colour shown in the video rectangle when the item cannot be decoded.
    public var placeholderColor = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1) { didSet { journal(self, \.placeholderColor, oldValue) } }

    /// Player layers alive in the process (models and presentation copies): while there are none,
    /// no tree can show a video, and a scene's frame skips looking for failed ones (a walk over
    /// every layer of the tree a frame, on the thread that renders it).
    package static var liveCount: Int { live.load(ordering: .relaxed) }
    private static let live = Atomic<Int>(0)

    public override init() {
        super.init()
        Self.live.add(1, ordering: .relaxed)
    }

    /// **Strata:** no archives: a layer with default values.
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        Self.live.add(1, ordering: .relaxed)
    }

    deinit { Self.live.subtract(1, ordering: .relaxed) }

    /// A layer showing `player`'s video.
    public convenience init(player: AVPlayer?) {
        self.init()
        self.player = player
    }

    public override init(layer: Any) {
        super.init(layer: layer)
        Self.live.add(1, ordering: .relaxed)
        guard let l = layer as? AVPlayerLayer else { return }
        player = l.player
        videoGravity = l.videoGravity
        placeholderColor = l.placeholderColor
    }

    /// Whether the current item has a decodable frame to show now.
    public var isReadyForDisplay: Bool {
        guard let item = player?.currentItem, let source = item.frameSource, item.status == .readyToPlay else { return false }
        return source.hasVideo
    }

    /// The rectangle in the bounds where the video is drawn (for `.resizeAspectFill` it extends
    /// past the bounds; the part outside is cropped).
    public var videoRect: CGRect {
        guard let size = player?.currentItem?.presentationSize, size.width > 0, size.height > 0 else { return .zero }
        return Self.videoRect(natural: size, in: bounds, gravity: videoGravity)
    }

    static func videoRect(natural: CGSize, in bounds: CGRect, gravity: AVLayerVideoGravity) -> CGRect {
        let bw = Double(bounds.width), bh = Double(bounds.height)
        let nw = Double(natural.width), nh = Double(natural.height)
        guard nw > 0, nh > 0 else { return .zero }
        var w = bw, h = bh
        if gravity == .resizeAspect {
            let s = min(bw / nw, bh / nh); w = nw * s; h = nh * s
        } else if gravity == .resizeAspectFill {
            let s = max(bw / nw, bh / nh); w = nw * s; h = nh * s
        }
        return CGRect(x: Double(bounds.minX) + (bw - w) / 2, y: Double(bounds.minY) + (bh - h) / 2, width: w, height: h)
    }

    // MARK: Presentation

    /// Sets the presentation copy's contents to the video frame shown at scene time `time`.
    open override func updatePresentation(atSceneTime time: Double) {
        super.updatePresentation(atSceneTime: time)
        guard let player else { return }
        let state = player.state(atSceneTime: time)
        guard let item = state.currentItem else {
            contents = nil
            return
        }
        guard let source = item.frameSource, item.status == .readyToPlay else {
            showPlaceholder()
            return
        }
        guard source.hasVideo, let index = source.frameIndex(atItemTime: state.itemTime) else {
            contents = nil
            return
        }
        let natural = source.naturalSize
        let rect = Self.videoRect(natural: CGSize(width: natural.width, height: natural.height), in: bounds, gravity: videoGravity)
        do {
            contents = try source.image(forFrame: index, size: decodeSize(natural: natural, shown: rect.size))
        } catch {
            item.recordFailure(error)
            showPlaceholder()
            return
        }
        place(shown: rect)
    }

    /// Natural size, or twice the shown size (× contentsScale) when that is smaller.
    private func decodeSize(natural: PixelSize, shown: CGSize) -> PixelSize? {
        let factor = 2 * max(1, Double(contentsScale))
        let w = Double(shown.width) * factor, h = Double(shown.height) * factor
        guard w.isFinite, h.isFinite, w > 0, h > 0,
              w < Double(natural.width) && h < Double(natural.height) else { return nil }
        let scale = max(w / Double(natural.width), h / Double(natural.height))
        let width = max(1, Int((Double(natural.width) * scale).rounded(.up)))
        let height = max(1, Int((Double(natural.height) * scale).rounded(.up)))
        return PixelSize(width: min(width, natural.width), height: min(height, natural.height))
    }

    /// Places the frame: aspect-fit through gravity, aspect-fill as a crop through contentsRect.
    private func place(shown rect: CGRect) {
        contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
        switch videoGravity {
        case .resize:
            contentsGravity = .resize
        case .resizeAspectFill:
            contentsGravity = .resize
            let w = Double(rect.width), h = Double(rect.height)
            if w > 0, h > 0 {
                let fx = min(1, Double(bounds.width) / w), fy = min(1, Double(bounds.height) / h)
                contentsRect = CGRect(x: (1 - fx) / 2, y: (1 - fy) / 2, width: fx, height: fy)
            }
        default:
            contentsGravity = .resizeAspect
        }
    }

    private func showPlaceholder() {
        contents = Self.placeholder(placeholderColor)
        contentsGravity = .resize
        contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    }

    private static func placeholder(_ color: CGColor) -> CGImage {
        func byte(_ v: CGFloat) -> UInt8 { UInt8((min(max(Double(v), 0), 1) * 255).rounded()) }
        return CGImage(bitmap: .filled(width: 2, height: 2, red: byte(color.red), green: byte(color.green),
                                       blue: byte(color.blue), alpha: byte(color.alpha)))
    }
}
