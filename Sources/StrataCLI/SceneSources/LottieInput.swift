// Lottie animations as scene sources: `strata render|still|sheet anim.json` (also .tgs), where a
// template is named. A .json file is a Lottie when its top level has "fr", "ip", "op" and
// "layers"; .tgs always is. The scene is the animation's size and frame rate (or --size, --fps),
// transparent (render's --background, an export flag, composites it over a colour); --segment
// plays one marker's frames; --replace-color/-text/-image fill colours, texts and images by name
// or slot id.
import ArgumentParser
import Foundation
import Strata
import StrataLottie

/// The options of Lottie inputs.
struct LottieOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A Lottie's marker: only its frames are rendered.", valueName: "marker"))
    var segment: String?

    @Option(name: .customLong("replace-color"),
            help: ArgumentHelp("A Lottie fill, stroke, group, layer or slot's colour (repeatable).", valueName: "name=#rrggbb"))
    var replaceColor: [String] = []

    @Option(name: .customLong("replace-text"), help: ArgumentHelp("A Lottie text layer's or slot's text (repeatable).", valueName: "name=text"))
    var replaceText: [String] = []

    @Option(name: .customLong("replace-image"),
            help: ArgumentHelp("A Lottie image asset's, image layer's or slot's picture (repeatable).", valueName: "name=file"))
    var replaceImage: [String] = []

    var isEmpty: Bool { segment == nil && replaceColor.isEmpty && replaceText.isEmpty && replaceImage.isEmpty }

    /// The replacements the options give (a value split at its first `=`).
    func replacements(limits: LottieLimits) throws -> LottieReplacements {
        func pairs(_ values: [String], _ flag: String) throws -> [(String, String)] {
            try values.map { v in
                guard let eq = v.firstIndex(of: "="), eq != v.startIndex else {
                    throw ValidationError("\(flag) \"\(v)\": expected NAME=VALUE")
                }
                return (String(v[..<eq]), String(v[v.index(after: eq)...]))
            }
        }
        var r = LottieReplacements()
        for (name, value) in try pairs(replaceColor, "--replace-color") {
            guard let c = Color(hex: value) else { throw ValidationError("--replace-color \(name)=\(value): expected a colour like #ff8000") }
            r.colors[name] = c.cgColor
        }
        for (name, value) in try pairs(replaceText, "--replace-text") { r.texts[name] = value }
        for (name, value) in try pairs(replaceImage, "--replace-image") {
            let size = (try? FileManager.default.attributesOfItem(atPath: value)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= limits.fileBytes, let data = try? Data(contentsOf: URL(fileURLWithPath: value)) else {
                throw CLIError(message: "--replace-image \(name)=\(value): cannot read the file" + (size > limits.fileBytes ? " (over \(limits.fileBytes) bytes)" : ""))
            }
            r.images[name] = data
        }
        return r
    }
}

enum LottieInput {
    /// Whether `path` names a Lottie: a .tgs, or a .json whose top level is a Lottie's.
    static func handles(_ path: String) -> Bool {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        if ext == "tgs" || ext == "lottie" { return true }
        guard ext == "json", let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        // The keys of a Lottie's top level; a template's JSON has none of "fr", "ip", "op".
        guard let head = try? handle.read(upToCount: 1 << 20), let text = String(data: head, encoding: .utf8) ?? String(data: head.prefix(1 << 19), encoding: .utf8) else { return false }
        return ["\"fr\"", "\"ip\"", "\"op\"", "\"layers\""].allSatisfy { text.contains($0) }
    }

    /// Prints what the animation uses that Strata does not render (stderr), once per render.
    static func warn(_ layer: LottieLayer, _ path: String) {
        guard !layer.unsupported.isEmpty else { return }
        var text = "warning: \(path) uses \(layer.unsupported.count) feature\(layer.unsupported.count == 1 ? "" : "s") Strata does not render (`strata probe \(path)` lists them):\n"
        for u in layer.unsupported.prefix(10) { text += "  \(u)\n" }
        if layer.unsupported.count > 10 { text += "  … and \(layer.unsupported.count - 10) more\n" }
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// The scene of the Lottie at `path`.
    static func makeScene(_ path: String, options: LottieOptions, format: SceneFormatOptions, limits: SceneLimits,
                          warn shouldWarn: Bool = true) throws -> Scene {
        let layer: LottieLayer
        do {
            let lottieLimits = LottieLimits(limits)
            layer = try LottieLayer(contentsOf: URL(fileURLWithPath: path), limits: lottieLimits,
                                    replacements: options.replacements(limits: lottieLimits))
        } catch let e as LottieError {
            throw CLIError(message: "\(path): \(e)")
        }
        let a = layer.animation!
        if shouldWarn { warn(layer, path) }
        var start = a.inPoint, end = a.outPoint
        if let name = options.segment {
            guard let m = a.markers.first(where: { $0.name == name }) else {
                let names = a.markers.map(\.name)
                throw CLIError(message: "\(path): no marker '\(name)' (\(names.isEmpty ? "the animation has no markers" : "markers: " + names.joined(separator: ", ")))")
            }
            start = max(a.inPoint, m.frame)
            end = min(a.outPoint, m.frame + max(m.duration, 1))
            guard end > start else { throw CLIError(message: "\(path): marker '\(name)' lies outside the animation's frames") }
        }
        let size = try format.parsedSize() ?? CGSize(width: a.width, height: a.height)
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        // Fitted into --size, keeping the aspect ratio, centred.
        let fit = min(size.width / a.width, size.height / a.height)
        layer.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        layer.position = CGPoint(x: size.width / 2, y: size.height / 2)
        if fit != 1 { layer.transform = CATransform3DMakeScale(fit, fit, 1) }
        layer.timeOffset = layer.time(ofFrame: start)
        root.addSublayer(layer)
        let fps = format.fps ?? a.frameRate
        let scene = Scene(rootLayer: root, size: size, frameRate: fps, duration: format.duration ?? (end - start) / a.frameRate)
        scene.contentsScale = format.contentsScale
        scene.limits = limits
        do { try scene.validated() } catch { throw CLIError(message: "\(path): \(error)") }
        return scene
    }

    /// `strata probe` for a Lottie: its size, timing, contents and every feature not rendered.
    static func probe(_ path: String) throws -> String {
        let layer: LottieLayer
        do { layer = try LottieLayer(contentsOf: URL(fileURLWithPath: path)) } catch let e as LottieError {
            throw CLIError(message: "\(path): \(e)")
        }
        let a = layer.animation!
        func n(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
        var lines = ["\(path): Lottie \(a.version.isEmpty ? "" : a.version + " ")\"\(a.name)\"",
                     "  size: \(n(a.width))x\(n(a.height))",
                     "  frame rate: \(n(a.frameRate)) fps",
                     "  frames: \(n(a.inPoint))..<\(n(a.outPoint)) (\(n(a.frameCount)) frames, \(String(format: "%.3f", a.duration)) s)",
                     "  layers: \(a.layerCount)",
                     "  text layers: " + (a.textLayerNames.isEmpty ? "none" : a.textLayerNames.joined(separator: ", ")),
                     "  slots: " + (a.slotIDs.isEmpty ? "none" : a.slotIDs.joined(separator: ", "))]
        lines.append("  markers: " + (a.markers.isEmpty ? "none" : a.markers.map { "\($0.name) (\(n($0.frame))+\(n($0.duration)))" }.joined(separator: ", ")))
        lines.append("  fonts: " + (a.fonts.isEmpty ? "none" : a.fonts.joined(separator: ", ")))
        lines.append("  images: " + (a.imageNames.isEmpty ? "none" : a.imageNames.joined(separator: ", ")))
        // Expression controls and pseudo effects draw nothing (in After Effects either): listed,
        // grouped by match name, apart from what is not rendered.
        if a.expressionControls.isEmpty {
            lines.append("  expression controls: none")
        } else {
            lines.append("  expression controls (\(a.expressionControls.count), values expressions read; nothing to draw):")
            var kinds: [String] = []
            var byKind: [String: [LottieExpressionControl]] = [:]
            for c in a.expressionControls {
                let kind = c.matchName.isEmpty ? "(no match name)" : c.matchName
                if byKind[kind] == nil { kinds.append(kind) }
                byKind[kind, default: []].append(c)
            }
            for kind in kinds {
                let list = byKind[kind]!
                let shown = list.prefix(3).map { "\($0.path) '\($0.name)'" } + (list.count > 3 ? ["… \(list.count - 3) more"] : [])
                lines.append("    \(kind) ×\(list.count): " + shown.joined(separator: ", "))
            }
        }
        if layer.unsupported.isEmpty {
            lines.append("  not rendered: nothing (every feature used is supported)")
        } else {
            lines.append("  not rendered (\(layer.unsupported.count)):")
            for u in layer.unsupported { lines.append("    \(u)") }
        }
        return lines.joined(separator: "\n")
    }
}
