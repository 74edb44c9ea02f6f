// Expressions that make more than numbers, evaluated at every whole frame where their layer
// shows once all layers are read (they may read any): on text documents (After Effects' Source
// Text, `t.d.x`), made into documents — one each time the text changes, with the style of the
// document shown then; and on paths, the paths they make (`createPath`, as After Effects' "Create
// Nulls From Paths" writes: points that follow nulls), made into keyframes a frame apart. A
// frame where an expression fails keeps the property's own value there (noted once).
import Foundation

extension LottieAnimation {
    /// Frames a text or path expression is evaluated at, at most (a longer layer keeps its own values).
    static let maxExpressionFrames = 10_000

    /// The layers with the documents their text expressions make.
    static func applyingTextExpressions(_ scripts: [String: LottieScript], expressions: LottieExpressions,
                                        layers: inout [LottieLayerModel], precomps: inout [String: [LottieLayerModel]],
                                        parser: inout LayerParser, limits: LottieLimits, notes: inout LottieNotes) {
        let cache = LottieExpressionCache()
        for path in scripts.keys.sorted() {
            guard let script = scripts[path], let ref = expressions.owner(of: path) else { continue }
            let model = ref.comp.isEmpty ? layers[ref.position] : precomps[ref.comp]![ref.position]
            guard case .text(var text) = model.content, !text.documents.isEmpty else { continue }
            if expressions.stoppedLayers.contains(model.path) {
                notes.add(path + ".x", "expression on a text: not run, as another expression of its layer is not (the document's text is used instead)")
                continue
            }
            let first = model.inPoint.rounded(.up), last = (model.outPoint - 1).rounded(.down)
            guard last >= first else { continue }
            guard last - first < Double(maxExpressionFrames) else {
                notes.add(path + ".x", "expression on a text: the layer shows for more than \(maxExpressionFrames) frames (the document's text is used instead)")
                continue
            }
            var documents: [(time: Double, document: LottieTextDocument)] = []
            var failure: String?
            var frame = first
            while frame <= last {
                let shown = text.documents.last { $0.time <= frame } ?? text.documents[0]
                var doc = shown.document
                do {
                    doc.text = try expressions.text(of: script, at: path, owner: ref, frame: frame, cache: cache)
                } catch {
                    if failure == nil { failure = (error as? LottieScriptError)?.message ?? "\(error)" }
                }
                if let previous = documents.last, previous.document.text == doc.text, previous.document.font == doc.font,
                   previous.time >= shown.time {
                    frame += 1
                    continue
                }
                parser.textCharacters += doc.text.unicodeScalars.count
                guard parser.textCharacters <= limits.textCharacters else {
                    notes.add(path + ".x", "expression on a text: more than \(limits.textCharacters) characters of text in all (the document's text is used from frame \(Int(frame)))")
                    // From here on, the file's own documents (already counted when read).
                    documents.append((frame == first ? min(frame, shown.time) : frame, shown.document))
                    break
                }
                if doc.glyphs != nil {
                    let before = parser.notes.list.count
                    doc.glyphs = parser.embeddedGlyphs(doc.text, fontName: doc.fontName, path: path + ".x")
                    for n in parser.notes.list.dropFirst(before) { notes.add(n.path, n.feature) }
                }
                documents.append((frame == first ? min(frame, shown.time) : frame, doc))
                frame += 1
            }
            if let failure {
                notes.add(path + ".x", "expression on a text: \(failure) (the document's text is used where it fails)")
            }
            // Frames after a stop keep the documents from there on.
            if let end = documents.last?.time, frame <= last {
                documents += text.documents.filter { $0.time > end }
            }
            guard !documents.isEmpty else { continue }
            text.documents = documents
            var changed = model
            changed.content = .text(text)
            if ref.comp.isEmpty { layers[ref.position] = changed } else { precomps[ref.comp]![ref.position] = changed }
        }
    }
}

extension LottieAnimation {
    /// The layers with each path whose expression makes it (`made`, by JSON path) given
    /// keyframes: its shape at every whole frame where its layer shows, linear between frames
    /// whose shapes have as many vertices (held otherwise).
    static func applyingMadePaths(_ made: [String], expressions: LottieExpressions, layers: inout [LottieLayerModel],
                                  precomps: inout [String: [LottieLayerModel]], limits: LottieLimits, notes: inout LottieNotes) {
        let cache = LottieExpressionCache()
        var links: [String: String] = [:]
        var shapes: [String: LottieAnimated<LottieBezier>] = [:]
        var points = 0
        for path in made.sorted() {
            guard let ref = expressions.owner(of: path), let own = expressions.shapes.paths[path] else { continue }
            let model = ref.comp.isEmpty ? layers[ref.position] : precomps[ref.comp]![ref.position]
            let first = model.inPoint.rounded(.up), last = (model.outPoint - 1).rounded(.down)
            guard last >= first else { continue }
            guard last - first < Double(maxExpressionFrames) else {
                notes.add(path + ".x", "expression on a path: the layer shows for more than \(maxExpressionFrames) frames (the keyframes are used instead)")
                continue
            }
            var keyframes: [LottieKeyframe<LottieBezier>] = []
            var failure: String?
            var frame = first
            while frame <= last {
                var shape: LottieBezier
                do {
                    shape = try expressions.madePath(at: path, frame: frame, cache: cache)
                } catch {
                    if failure == nil { failure = (error as? LottieScriptError)?.message ?? "\(error)" }
                    shape = own.value(at: frame)
                }
                points += shape.vertices.count
                guard points <= limits.sampledPathPoints else {
                    notes.add(path + ".x", "expression on a path: more than \(limits.sampledPathPoints) path points made in all (the keyframes are used instead)")
                    keyframes = []
                    break
                }
                if let previous = keyframes.last, previous.value.vertices.count != shape.vertices.count || previous.value.closed != shape.closed {
                    keyframes[keyframes.count - 1].hold = true
                }
                keyframes.append(LottieKeyframe(time: frame, value: shape, hold: false, easing: nil))
                frame += 1
            }
            if let failure {
                notes.add(path + ".x", "expression on a path: \(failure) (the keyframes are used where it fails)")
            }
            guard !keyframes.isEmpty else { continue }
            let key = path + " (made)"
            shapes[key] = keyframes.count == 1 ? .fixed(keyframes[0].value) : .keyframes(keyframes)
            links[path] = key
        }
        guard !links.isEmpty else { return }
        layers = linking(layers, links, shapes)
        precomps = precomps.mapValues { linking($0, links, shapes) }
    }
}
