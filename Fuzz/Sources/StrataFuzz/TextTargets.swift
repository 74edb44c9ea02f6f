// Targets for the text formats: templates, expressions, CSV/JSON Lines rows and captions.
import Foundation
@testable import Strata

enum FuzzTemplate {
    static func run(_ data: Data) {
        // Through the file, as `strata render` reads it (size limit and UTF-8 check included).
        let url = Scratch.file("template.yaml", data)
        guard let template = try? Template(contentsOf: url) else { return }
        _ = try? template.expandedJSON()
        guard let scene = try? template.makeScene() else { return }
        // One small frame, so that the values a template sets reach the renderer too (a shadow's
        // blur, a layer's edges): drawn at most 48 px across to keep executions fast.
        let longest = max(Double(scene.size.width), Double(scene.size.height))
        if longest.isFinite, longest > 0 { scene.contentsScale = CGFloat(min(1, 48 / longest)) }
        _ = try? scene.renderFrame(at: 0.5)
    }
}

enum FuzzExpression {
    static let scope: [String: TemplateValue] = [
        "n": .number(3), "x": .number(-2.5), "s": .string("Strata"), "flag": .bool(true), "none": .null,
        // Numbers at the edges: beyond Int's range, beyond any count.
        "big": .number(1e300), "huge": .number(1e19),
        "items": .list([.number(1), .number(2), .number(3)]),
        "rows": .list([.object(["name": .string("a"), "value": .number(2)]),
                       .object(["name": .string("b"), "value": .number(-1)])]),
        "row": .object(["name": .string("a"), "value": .number(2), "tags": .list([.string("x")])]),
    ]

    static func run(_ data: Data) {
        guard let source = String(validating: data, as: UTF8.self),
              let expression = try? TemplateExpression.parse(source) else { return }
        _ = try? expression.evaluate(scope)
    }
}

enum FuzzRows {
    static func run(_ data: Data) {
        guard let text = String(validating: data, as: UTF8.self) else { return }
        _ = try? DataFiles.csvRows(text, file: "rows.csv")
        _ = try? DataFiles.csvTable(text, file: "rows.csv")
        for row in DataFiles.jsonLineRows(text) { _ = row.value?.text }
    }
}

enum FuzzCaptions {
    static func run(_ data: Data) {
        guard let text = String(validating: data, as: UTF8.self) else { return }
        _ = try? DataFiles.captions(text, file: "captions.srt")
    }
}
