// Expressions on text documents (After Effects' Source Text, `t.d.x`): evaluated at every whole
// frame where the layer shows, after the other layers are read (they may read them), and made
// into documents — one each time the text changes, with the style of the document shown then.
// A frame where the expression fails keeps the document's own text (noted once).
import Foundation

extension LottieAnimation {
    /// Frames a text expression is evaluated at, at most (a longer layer keeps its documents).
    static let maxTextExpressionFrames = 10_000

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
            guard last - first < Double(maxTextExpressionFrames) else {
                notes.add(path + ".x", "expression on a text: the layer shows for more than \(maxTextExpressionFrames) frames (the document's text is used instead)")
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
            text.documents = documents
            var changed = model
            changed.content = .text(text)
            if ref.comp.isEmpty { layers[ref.position] = changed } else { precomps[ref.comp]![ref.position] = changed }
        }
    }
}
