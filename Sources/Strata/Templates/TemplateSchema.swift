// The JSON Schema of the template format (draft 2020-12), printed by `strata schema` and used to
// check a filled-in template before it is compiled: it settles the document's shape — keys,
// value types, ranges — and the compiler then checks what each property's value means (a colour,
// a point, a path). `x-expected` annotations give the words error messages use.
import Foundation

/// The template format's JSON Schema (`strata schema` prints it).
public enum TemplateSchema {
    /// The schema as JSON text.
    public static let json = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "https://strata.dev/schema/template.json",
      "title": "Strata template",
      "description": "A scene as JSON or YAML: size, frame rate, duration, parameters, layers and timeline, with the names of Strata's Swift API. Strings may hold {{expressions}} of parameters.",
      "type": "object",
      "required": ["size", "duration"],
      "additionalProperties": false,
      "properties": {
        "name": {"type": "string"},
        "description": {"type": "string"},
        "parameters": {"type": "array", "items": {"$ref": "#/$defs/parameter"}},
        "export": {"$ref": "#/$defs/export"},
        "size": {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0}, "minItems": 2, "maxItems": 2,
                 "x-expected": "a size [width, height] with positive numbers"},
        "frameRate": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000, "x-expected": "a number of frames per second in (0, 1000]"},
        "fps": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000, "x-expected": "a number of frames per second in (0, 1000]"},
        "duration": {"type": "number", "exclusiveMinimum": 0, "maximum": 86400, "x-expected": "a number of seconds > 0"},
        "background": {"$ref": "#/$defs/color"},
        "layers": {"type": "array", "items": {"$ref": "#/$defs/layer"}},
        "timeline": {"type": "array", "items": {"$ref": "#/$defs/step"}}
      },
      "$defs": {
        "time": {"anyOf": [{"type": "number", "minimum": 0}, {"type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?[sf]?$"},
                           {"type": "array", "items": {"$ref": "#/$defs/time"}}],
                 "x-expected": "a number ≥ 0 (seconds) or frames (\"12f\")"},
        "color": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 4}],
                  "x-expected": "a colour (\"#RRGGBB\", a name, \"oklch(l c h)\" or [r, g, b, a])"},
        "timing": {"anyOf": [{"type": "string"}, {"type": "object"}], "x-expected": "a timing curve name or object"},
        "export": {
          "type": "object", "additionalProperties": false,
          "x-expected": "an object of export settings (the command line's flags override them)",
          "properties": {
            "codec": {"enum": ["h264", "hevc", "vp9", "av1", "prores"]},
            "alpha": {"type": "boolean"}, "audio": {"type": "boolean"}, "lossless": {"type": "boolean"},
            "pixelFormat": {"enum": ["yuv420p", "yuv422p", "yuv444p", "yuv420p10", "yuv422p10", "yuv444p10", "yuva420p", "yuva444p10"]},
            "crf": {"type": "integer", "minimum": 0, "maximum": 63},
            "bitrate": {"anyOf": [{"type": "number", "minimum": 1000}, {"type": "string"}], "x-expected": "bits per second, e.g. 5M or 800k"},
            "quality": {"type": "integer", "minimum": 0, "maximum": 100},
            "preset": {"enum": ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]},
            "background": {"$ref": "#/$defs/color"},
            "colors": {"type": "integer", "minimum": 2, "maximum": 256},
            "dither": {"type": "string", "pattern": "^(none|ordered(=[0-9.]+)?|diffusion(=[0-9.]+)?)$"},
            "loop": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 65535}, {"const": "forever"}], "x-expected": "a number of plays ≥ 1 or forever"},
            "maxBytes": {"anyOf": [{"type": "integer", "minimum": 1000}, {"type": "string"}], "x-expected": "a size such as 2MB or 500KB"},
            "gifFps": {"type": "number", "exclusiveMinimum": 0, "maximum": 100}
          }
        },
        "parameter": {
          "type": "object", "required": ["name"], "additionalProperties": false,
          "properties": {
            "name": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
            "type": {"enum": ["string", "number", "integer", "boolean", "color", "enum", "image", "video", "audio", "file", "list", "csv", "json", "captions"]},
            "default": true, "description": {"type": "string"},
            "min": {"type": "number"}, "max": {"type": "number"},
            "minLength": {"type": "integer", "minimum": 0}, "maxLength": {"type": "integer", "minimum": 0},
            "values": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "items": {"enum": ["string", "number", "integer", "boolean", "color", "enum"]}
          }
        },
        "layout": {
          "type": "object", "additionalProperties": false,
          "properties": {
            "center": {"type": "boolean"},
            "pin": {"enum": ["top", "bottom", "leading", "trailing", "topLeading", "topTrailing", "bottomLeading", "bottomTrailing", "center"]},
            "inset": {"type": "number"},
            "offset": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
            "width": {"$ref": "#/$defs/length"}, "height": {"$ref": "#/$defs/length"},
            "minWidth": {"$ref": "#/$defs/length"}, "maxWidth": {"$ref": "#/$defs/length"},
            "minHeight": {"$ref": "#/$defs/length"}, "maxHeight": {"$ref": "#/$defs/length"},
            "aspectRatio": {"type": "number", "exclusiveMinimum": 0, "x-expected": "a width ÷ height ratio > 0"},
            "contentMode": {"enum": ["fit", "fill"]},
            "padding": {"anyOf": [{"const": "safeArea"}, {"$ref": "#/$defs/length"},
                                  {"type": "array", "items": {"$ref": "#/$defs/length"}, "minItems": 2, "maxItems": 4}],
                        "x-expected": "a length, [vertical, horizontal], [top, leading, bottom, trailing] or \"safeArea\""}
          }
        },
        "length": {"anyOf": [{"type": "number", "minimum": 0}, {"type": "string", "pattern": "^([0-9]+(\\.[0-9]+)?%|fill|infinity)$"}],
                   "x-expected": "a length: points, a percentage of the parent (\"50%\") or \"fill\""},
        "transition": {
          "type": "object", "required": ["type"], "additionalProperties": false,
          "properties": {
            "type": {"enum": ["fade", "moveIn", "push", "reveal", "wipe", "radialWipe", "clockWipe", "slide", "zoom", "iris", "blurDissolve", "flip", "cube"]},
            "direction": {"enum": ["fromLeft", "fromRight", "fromTop", "fromBottom"]},
            "duration": {"$ref": "#/$defs/time"},
            "timing": {"$ref": "#/$defs/timing"},
            "center": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2, "x-expected": "a unit point [x, y]"},
            "perspective": {"type": "number", "exclusiveMinimum": 0, "x-expected": "a distance > 0, a multiple of the larger side"}
          }
        },
        "animation": {
          "type": "object", "required": ["property"], "additionalProperties": false,
          "properties": {
            "property": {"type": "string", "minLength": 1},
            "from": true, "to": true, "by": true,
            "values": {"type": "array", "minItems": 1},
            "keyTimes": {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1}},
            "duration": {"$ref": "#/$defs/time"},
            "delay": {"$ref": "#/$defs/time"},
            "timing": {"$ref": "#/$defs/timing"},
            "repeat": {"anyOf": [{"type": "number", "minimum": 0}, {"const": "forever"}], "x-expected": "a number of cycles ≥ 0 or \"forever\""},
            "autoreverses": {"type": "boolean"},
            "additive": {"type": "boolean"}
          }
        },
        "layer": {
          "type": "object", "required": ["type"],
          "properties": {
            "type": {"enum": ["layer", "shape", "text", "gradient", "image", "video", "group", "transformGroup", "hstack", "vstack", "zstack", "terminal", "lottie", "sections", "section", "spacer"]},
            "id": {"type": "string"},
            "transition": {"$ref": "#/$defs/transition"},
            "minLength": {"type": "number", "minimum": 0},
            "layout": {"$ref": "#/$defs/layout"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/layer"}},
            "mask": {"$ref": "#/$defs/layer"},
            "animations": {"type": "array", "items": {"$ref": "#/$defs/animation"}},
            "states": {"type": "object", "additionalProperties": {"type": "object"}},
            "timeline": {"type": "array", "items": {"$ref": "#/$defs/step"}},
            "opacity": {"type": "number", "minimum": 0, "maximum": 1},
            "fontSize": {"type": "number", "exclusiveMinimum": 0, "maximum": \#(Int(CATextLayer.maximumFontSize)), "x-expected": "a font size in points > 0 and ≤ \#(Int(CATextLayer.maximumFontSize))"},
            "cornerRadius": {"type": "number", "minimum": 0},
            "borderWidth": {"type": "number", "minimum": 0},
            "lineWidth": {"type": "number", "minimum": 0},
            "string": {"type": "string"},
            "value": {"type": "number", "x-expected": "a counter's number"},
            "format": {"anyOf": [{"enum": ["number", "percent", "currency", "duration"]}, {"type": "object"}],
                       "x-expected": "a number format: \"number\", \"percent\", \"currency\", \"duration\" or {\"style\": …, \"decimals\": …, …}"},
            "monospacedDigits": {"type": "boolean"},
            "reveal": {"anyOf": [{"enum": ["characters", "words", "lines", "scramble"]}, {"type": "object"}],
                       "x-expected": "\"characters\", \"words\", \"lines\", \"scramble\" or {\"by\": …, \"seed\": …, \"characters\": …}"},
            "revealed": {"type": "number", "minimum": 0, "maximum": 1, "x-expected": "the part of the text shown, 0…1"},
            "font": {"type": "string"},
            "image": {"type": "string"},
            "video": {"type": "string"},
            "lottie": {"type": "string", "x-expected": "the path of a Lottie file (.json, .lottie or .tgs)"},
            "segment": {"type": "string", "x-expected": "the name of one of the Lottie's markers"},
            "images": {"type": "object", "additionalProperties": {"type": "string"}, "x-expected": "image files by Lottie asset, layer or slot name"},
            "texts": {"type": "object", "additionalProperties": {"type": "string"}, "x-expected": "texts by Lottie text layer or slot name"},
            "session": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/sessionEntry"}]}, "maxItems": 10000,
                        "x-expected": "a list of lines (text) or entries ({\"command\": …} or {\"output\": …})"},
            "prompt": {"type": "string"},
            "theme": {"type": "string"},
            "fontFamily": {"type": "string"},
            "typingSpeed": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000, "x-expected": "characters per second in (0, 1000]"},
            "pause": {"type": "number", "minimum": 0, "maximum": 3600},
            "commandDelay": {"type": "number", "minimum": 0, "maximum": 3600},
            "outputDelay": {"type": "number", "minimum": 0, "maximum": 3600},
            "columns": {"type": "integer", "minimum": 1, "maximum": 1000},
            "rows": {"type": "integer", "minimum": 1, "maximum": 1000},
            "finalPrompt": {"type": "boolean"},
            "promptColor": {"$ref": "#/$defs/color"},
            "outputColor": {"$ref": "#/$defs/color"},
            "themeBackground": {"$ref": "#/$defs/color"},
            "themeForeground": {"$ref": "#/$defs/color"},
            "cursorColor": {"$ref": "#/$defs/color"},
            "lineHeight": {"type": "number", "minimum": 0.5, "maximum": 4},
            "letterSpacing": {"type": "number"},
            "padding": {"type": "number", "minimum": 0},
            "windowBar": {"enum": ["none", "colorful", "colorfulRight", "rings", "ringsRight"]},
            "windowBarSize": {"type": "number", "minimum": 0},
            "windowTitle": {"type": "string"},
            "windowRadius": {"type": "number", "minimum": 0},
            "cursorShape": {"enum": ["block", "bar", "underline"]},
            "cursorBlink": {"type": "boolean"},
            "backgroundColor": {"$ref": "#/$defs/color"},
            "borderColor": {"$ref": "#/$defs/color"},
            "fillColor": {"$ref": "#/$defs/color"},
            "strokeColor": {"$ref": "#/$defs/color"},
            "foregroundColor": {"$ref": "#/$defs/color"},
            "shadowColor": {"$ref": "#/$defs/color"},
            "position": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2, "x-expected": "a point [x, y]"},
            "size": {"type": "array", "items": {"type": "number", "minimum": 0}, "minItems": 2, "maxItems": 2, "x-expected": "a size [width, height]"},
            "frame": {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4, "x-expected": "a rectangle [x, y, width, height]"}
          }
        },
        "sessionEntry": {
          "type": "object",
          "properties": {
            "command": {"type": "string"}, "output": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
            "delay": {"type": "number", "minimum": 0, "maximum": 3600}, "pause": {"type": "number", "minimum": 0, "maximum": 3600},
            "typingSpeed": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000}, "clear": {"type": "boolean"}
          }
        },
        "step": {
          "type": "object", "required": ["type"],
          "properties": {
            "type": {"enum": ["animate", "set", "transition", "chain", "parallel", "stagger", "wait", "loop", "marker", "at"]},
            "target": {"type": "string"},
            "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
            "duration": {"$ref": "#/$defs/time"},
            "delay": {"$ref": "#/$defs/time"},
            "interval": {"$ref": "#/$defs/time"},
            "time": {"$ref": "#/$defs/time"},
            "timing": {"$ref": "#/$defs/timing"},
            "count": {"anyOf": [{"type": "integer", "minimum": 0}, {"const": "forever"}], "x-expected": "a whole number ≥ 0 or \"forever\""},
            "name": {"type": "string"},
            "marker": {"type": "string"},
            "state": {"type": "string"},
            "properties": {"type": "object"},
            "property": {"type": "string"}
          }
        }
      }
    }
    """#

    /// The parsed schema. It is part of the program: a schema that does not parse stops the
    /// program with the parser's message (an empty schema would let every template through);
    /// `TemplateSchemaTests` parses it.
    static let root: TemplateNode = parsed(json)

    /// `text` parsed as a schema; a programming error when it does not parse.
    static func parsed(_ text: String) -> TemplateNode {
        do {
            return try TemplateReader.parse(text, file: "schema")
        } catch {
            preconditionFailure("the template schema does not parse: \(error)")
        }
    }

    /// Checks `document`; returns (JSON path, message) for each place that does not fit.
    static func validate(_ document: TemplateNode) -> [(path: String, message: String)] {
        var problems: [(String, String)] = []
        check(document, against: root, path: "", into: &problems)
        return problems
    }

    private static func resolve(_ schema: TemplateNode) -> TemplateNode {
        if let ref = schema["$ref"]?.string, ref.hasPrefix("#/$defs/"), let target = root["$defs"]?[String(ref.dropFirst(8))] {
            return resolve(target)
        }
        return schema
    }

    private static func check(_ value: TemplateNode, against rawSchema: TemplateNode, path: String,
                              into problems: inout [(String, String)]) {
        let schema = resolve(rawSchema)
        if case .bool(let allowed) = schema.value {
            if !allowed { problems.append((path, "not allowed here")) }
            return
        }
        func mismatch() { problems.append((path, "expected \(expectation(schema)), got \(value.jsonText)")) }
        if let options = schema["anyOf"], case .array(let list) = options.value {
            let fits = list.contains { option in
                var sub: [(String, String)] = []
                check(value, against: option, path: path, into: &sub)
                return sub.isEmpty
            }
            if !fits { mismatch() }
            return
        }
        if let allowed = schema["enum"], case .array(let values) = allowed.value {
            if !values.contains(where: { $0.value == value.value }) { mismatch() }
            return
        }
        if let constant = schema["const"], constant.value != value.value { mismatch(); return }
        if let t = schema["type"]?.string, !fits(value, type: t) { mismatch(); return }
        switch value.value {
        case .number(let n):
            if let m = number(schema["minimum"]), n < m { mismatch() }
            if let m = number(schema["exclusiveMinimum"]), n <= m { mismatch() }
            if let m = number(schema["maximum"]), n > m { mismatch() }
        case .string(let s):
            if let m = number(schema["minLength"]), Double(s.count) < m { mismatch() }
            if let pattern = schema["pattern"]?.string, s.range(of: pattern, options: .regularExpression) == nil { mismatch() }
        case .array(let items):
            if let m = number(schema["minItems"]), Double(items.count) < m { mismatch(); return }
            if let m = number(schema["maxItems"]), Double(items.count) > m { mismatch(); return }
            if let itemSchema = schema["items"] {
                for (i, item) in items.enumerated() { check(item, against: itemSchema, path: "\(path)[\(i)]", into: &problems) }
            }
        case .object(let members):
            let properties = schema["properties"]
            if case .array(let required)? = schema["required"]?.value {
                for r in required.compactMap(\.string) where !members.contains(where: { $0.key == r }) {
                    problems.append((path, "missing \"\(r)\""))
                }
            }
            for m in members {
                let p = path.isEmpty ? m.key : "\(path).\(m.key)"
                if let s = properties?[m.key] {
                    check(m.node, against: s, path: p, into: &problems)
                } else if let extra = schema["additionalProperties"] {
                    if case .bool(false) = extra.value {
                        let known = properties.flatMap { n -> [String]? in
                            guard case .object(let ms) = n.value else { return nil }
                            return ms.map(\.key)
                        } ?? []
                        problems.append((p, "unknown key\(NearestName.didYouMean(m.key, among: known))(expected \(known.joined(separator: ", ")))"))
                    } else {
                        check(m.node, against: extra, path: p, into: &problems)
                    }
                }
            }
        default:
            break
        }
    }

    private static func number(_ n: TemplateNode?) -> Double? {
        if case .number(let v)? = n?.value { return v }
        return nil
    }

    private static func fits(_ value: TemplateNode, type: String) -> Bool {
        switch (type, value.value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("number", .number): true
        case ("integer", .number(let n)): n == n.rounded()
        default: false
        }
    }

    /// The words for what a schema wants.
    private static func expectation(_ schema: TemplateNode) -> String {
        if let x = schema["x-expected"]?.string { return x }
        if case .array(let values)? = schema["enum"]?.value { return "one of " + values.map(\.jsonText).joined(separator: ", ") }
        if let c = schema["const"] { return c.jsonText }
        let t = schema["type"]?.string ?? "a value"
        var s = ["number": "a number", "integer": "a whole number", "string": "text", "boolean": "true or false",
                 "array": "a list", "object": "an object"][t] ?? t
        if let m = number(schema["minimum"]) { s += " ≥ \(TemplateValue.number(m).text)" }
        if let m = number(schema["exclusiveMinimum"]) { s += " > \(TemplateValue.number(m).text)" }
        if let m = number(schema["maximum"]) { s += (s.contains("≥") || s.contains(">") ? " and" : "") + " ≤ \(TemplateValue.number(m).text)" }
        if let m = number(schema["minLength"]), m > 0 { s += " (not empty)" }
        return s
    }
}
