// Strata Studio: a local web page showing any frame of a target on demand, bit-identical to
// `strata still`, with hot reload, a timeline from the scene's model, a parameters panel and a
// render queue. This is the server: the HTTP contract (docs/studio.md), its safety checks
// (Host/Origin against DNS rebinding, a per-session token for every POST, only its own
// resources), the reload watcher and the event stream.
import Foundation
import Strata

// @unchecked: the mutable state below is read and written only inside `lock.locked` (and the
// scenes and frames inside `renderLock.locked`); `server` and `watcher` are set once by `start`.
/// A running studio (`strata preview TARGET`).
public final class Studio: @unchecked Sendable {
    /// How it serves (host, port, scale, output folder, …).
    public let configuration: StudioConfiguration
    let target: StudioTarget
    /// The secret the page gets with `GET /` and sends back with every POST.
    public let token: String
    private var server: HTTPServer?

    // State, under `lock`.
    private let lock = StudioLock()
    private var document: StudioDocument
    /// Bumped by every reload and parameter change.
    private var generation = 0
    /// The page's parameter values (a JSON object; they override the command line's).
    private var overrides: [String: Any] = [:]
    private var lastError: String?
    private var stopping = false
    private var timelineCache: (generation: Int, rows: [[String: Any]], markers: [[String: Any]])?

    /// Rendering (one scene per scale; a scene renders one frame at a time), under `renderLock`.
    private let renderLock = StudioLock()
    private var scenes: [Double: (generation: Int, scene: Scene)] = [:]
    private var frameCache = FrameCache(capacity: 96 << 20)

    let renders: StudioRenders
    private let events = StudioEventStream()
    private var watcher: StudioFileWatcher?

    /// Reads the target (throws when its first reading fails: there is no last good scene yet).
    public init(target: StudioTarget, configuration: StudioConfiguration) throws {
        self.target = target
        self.configuration = configuration
        token = configuration.token ?? Self.randomToken()
        generation = configuration.firstGeneration
        document = try target.load()
        renders = StudioRenders(outputFolder: configuration.outputFolder, baseOptions: configuration.exportOptions)
        // The first scene is checked now, so that a broken target fails the command at once.
        _ = try makeScene(document: document, overrides: nil, scale: configuration.defaultScale)
    }

    /// The port served (after `start`).
    public var port: Int { server?.port ?? 0 }

    /// 24 random bytes in hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<24).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// The page's address.
    public var url: String {
        let h = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(h):\(port)/"
    }

    /// Binds and starts serving and watching.
    public func start() throws {
        let server = HTTPServer(host: configuration.host) { [self] request in respond(request) }
        try server.start(port: configuration.port)
        self.server = server
        let watcher = StudioFileWatcher(interval: configuration.watchInterval, afterChange: .lookAgain,
                                        files: { [self] in lock.locked { document.watchedFiles } }, changed: { [self] in reload() })
        watcher.start()
        self.watcher = watcher
    }

    /// Stops: cancels renders (their partial files are removed), closes the event streams and
    /// connections, and stops watching.
    public func stop() {
        let already = lock.locked { () -> Bool in
            defer { stopping = true }
            return stopping
        }
        guard !already else { return }
        renders.stopAll()
        events.close()
        server?.stop()
        watcher?.stop()
    }

    // MARK: Scenes and frames

    private func makeScene(document: StudioDocument, overrides: [String: Any]?, scale: Double) throws -> Scene {
        var data: Data?
        if let overrides, !overrides.isEmpty { data = try JSONSerialization.data(withJSONObject: overrides) }
        return try document.makeScene(data, scale)
    }

    /// The scene of the current generation at `scale` (made once per generation and scale).
    /// Call with `renderLock` held.
    private func scene(scale: Double) throws -> (Scene, Int) {
        let (doc, values, gen) = lock.locked { (document, overrides, generation) }
        if let cached = scenes[scale], cached.generation == gen { return (cached.scene, gen) }
        let s = try makeScene(document: doc, overrides: values, scale: scale)
        scenes = scenes.filter { $0.value.generation == gen }
        if scenes.count >= 4 { scenes.removeAll() }
        scenes[scale] = (gen, s)
        return (s, gen)
    }

    /// The PNG of the frame at `time` and `scale`.
    /// `stored`: an uncompressed PNG of the same pixels (StoredPNG), for the page.
    func framePNG(time: Double, scale: Double, stored: Bool = false) throws -> Data {
        try renderLock.lockedThrowing {
            let (scene, gen) = try scene(scale: scale)
            let key = FrameKey(generation: gen, scale: scale, time: time, stored: stored)
            if let png = frameCache.get(key) { return png }
            let bitmap = try scene.renderFrame(at: time)
            let png = stored ? StoredPNG.encode(bitmap) : try bitmap.pngData()
            frameCache.put(key, png)
            return png
        }
    }

    // MARK: Routes

    /// Whether `host` (a Host header) names the address served (see `StudioRequestGuard`).
    func hostAllowed(_ host: String) -> Bool {
        StudioRequestGuard(host: configuration.host, port: port, token: token).hostAllowed(host)
    }

    func respond(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = StudioRequestGuard(host: configuration.host, port: port, token: token).refusal(of: request, url: url) {
            return refusal
        }
        switch (request.method, request.path) {
        case ("GET", "/"), ("HEAD", "/"):
            return page()
        case ("GET", _) where StudioAssets.files[request.path] != nil, ("HEAD", _) where StudioAssets.files[request.path] != nil:
            let asset = StudioAssets.files[request.path]!
            var r = HTTPResponse(status: 200, contentType: asset.type, body: Data(asset.text.utf8))
            r.headers.append(("Cache-Control", "no-cache"))
            return r
        case ("GET", "/api/scene"):
            return sceneJSON()
        case ("GET", "/api/frame"):
            return frame(request)
        case ("GET", "/api/sheet"):
            return sheet(request)
        case ("GET", "/api/rows"):
            return rows(request)
        case ("GET", "/api/layer"):
            return layer(request)
        case ("POST", "/api/parameters"):
            return setParameters(request)
        case ("GET", "/api/events"):
            return eventStream()
        case ("POST", "/api/render"):
            return startRender(request)
        case ("GET", "/api/render"):
            return .json(["jobs": renders.list()])
        case ("GET", _) where request.path.hasPrefix("/api/render/"):
            let rest = request.path.dropFirst("/api/render/".count)
            if rest.hasSuffix("/file") {
                return renders.file(id: String(rest.dropLast("/file".count)))
            }
            guard let job = renders.status(id: String(rest)) else { return .error(404, "no render job \"\(rest.prefix(40))\"", field: "id") }
            return .json(job)
        case ("POST", _) where request.path.hasPrefix("/api/render/") && request.path.hasSuffix("/cancel"):
            let id = String(request.path.dropFirst("/api/render/".count).dropLast("/cancel".count))
            guard renders.cancel(id: id) else { return .error(404, "no render job \"\(id.prefix(40))\"", field: "id") }
            return .json(renders.status(id: id) ?? [:])
        default:
            let known = ["/", "/api/scene", "/api/frame", "/api/sheet", "/api/rows", "/api/layer", "/api/parameters", "/api/events", "/api/render"]
            if known.contains(request.path) || StudioAssets.files[request.path] != nil {
                return .error(405, "\(request.method) is not allowed on \(request.path)", field: "method")
            }
            return .error(404, "no resource \(request.path.prefix(200))", field: "path")
        }
    }

    private func page() -> HTTPResponse {
        let html = StudioAssets.html.replacingOccurrences(of: "{{TOKEN}}", with: token)
        var r = HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Data(html.utf8))
        r.headers.append(("Cache-Control", "no-store"))
        r.headers.append(("Content-Security-Policy",
                          "default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"))
        r.headers.append(("Referrer-Policy", "no-referrer"))
        return r
    }

    private func sceneJSON() -> HTTPResponse {
        let scene: Scene, gen: Int
        do {
            (scene, gen) = try renderLock.lockedThrowing { try self.scene(scale: 1) }
        } catch {
            return .error(500, fieldOf(error).message)
        }
        let (doc, values, error, cached) = lock.locked { (document, overrides, lastError, timelineCache) }
        var timeline = cached?.generation == gen ? cached : nil
        if timeline == nil {
            // A scene of its own: the timeline moves it to its end.
            let fresh = (try? makeScene(document: doc, overrides: values, scale: 1)) ?? scene
            let t = fresh === scene ? (rows: [[String: Any]](), markers: [[String: Any]]()) : StudioTimeline.describe(fresh)
            timeline = (gen, t.rows, t.markers)
            lock.locked { timelineCache = timeline }
        }
        var parameters: [String: Any] = ["values": currentValues(doc, values)]
        if let schema = doc.parametersSchema, let object = try? JSONSerialization.jsonObject(with: schema) { parameters["schema"] = object }
        var object: [String: Any] = [
            "name": doc.name, "generation": gen,
            "width": Double(scene.size.width), "height": Double(scene.size.height),
            "fps": scene.requestedFrameRate, "duration": scene.duration, "frameCount": scene.frameCount,
            "defaultScale": configuration.defaultScale,
            "parameters": parameters, "markers": timeline!.markers, "timeline": timeline!.rows, "files": doc.assetFiles,
        ]
        if let error { object["error"] = error }
        return .json(object)
    }

    /// Every parameter's value: the page's, else the command line's, else the default.
    private func currentValues(_ doc: StudioDocument, _ values: [String: Any]) -> [String: Any] {
        var result: [String: Any] = [:]
        if let schema = doc.parametersSchema, let object = try? JSONSerialization.jsonObject(with: schema) as? [String: Any],
           let properties = object["properties"] as? [String: Any] {
            for (name, p) in properties { if let d = (p as? [String: Any])?["default"] { result[name] = d } }
        }
        for (k, v) in doc.commandLineValues { result[k] = v }
        for (k, v) in values { result[k] = v }
        return result
    }

    private func frame(_ request: HTTPRequest) -> HTTPResponse {
        let q = request.query
        for name in q.keys where !["t", "frame", "scale", "compression", "v"].contains(name) {
            return .error(400, "unknown query field \"\(name.prefix(40))\" (fields: t or frame, scale, compression)", field: name)
        }
        let stored: Bool
        switch q["compression"] {
        case nil, "default": stored = false
        case "none": stored = true
        case let other?: return .error(400, "compression \"\(other.prefix(40))\" must be default (the bytes of strata still) or none (the same pixels, uncompressed)", field: "compression")
        }
        var scale = configuration.defaultScale
        if let s = q["scale"] {
            guard let v = Double(s), v.isFinite, v > 0, v <= 8 else {
                return .error(400, "scale \"\(s.prefix(40))\" must be a number in (0, 8]", field: "scale")
            }
            scale = v
        }
        let info: (duration: Double, frames: Int, rate: FrameRate?)
        do {
            // The size is checked on the scale-1 scene before one at `scale` is made.
            let s = try renderLock.lockedThrowing { try scene(scale: 1).0 }
            let w = (Double(s.size.width) * scale).rounded(), h = (Double(s.size.height) * scale).rounded()
            guard w >= 1, h >= 1, w <= Double(s.maximumPixelSize), h <= Double(s.maximumPixelSize) else {
                return .error(400, "scale \(formatted(scale)) makes a frame of \(formatted(w))×\(formatted(h)) px: each side must be 1 to \(s.maximumPixelSize) px", field: "scale")
            }
            info = (s.duration, s.frameCount, s.frameRate)
        } catch {
            return .error(500, fieldOf(error).message)
        }
        let time: Double
        switch (q["t"], q["frame"]) {
        case (nil, nil):
            return .error(400, "give the time t=SECONDS or frame=N", field: "t")
        case (.some, .some):
            return .error(400, "give t or frame, not both", field: "frame")
        case (let t?, nil):
            guard let v = Double(t), v.isFinite else { return .error(400, "t \"\(t.prefix(40))\" must be a number of seconds", field: "t") }
            guard v >= 0, v <= info.duration else {
                return .error(400, "t \(formatted(v)) must be between 0 and the duration \(formatted(info.duration))", field: "t")
            }
            time = v
        case (nil, let f?):
            guard let n = Int(f) else { return .error(400, "frame \"\(f.prefix(40))\" must be a whole number", field: "frame") }
            guard n >= 0, n < info.frames, let rate = info.rate else {
                return .error(400, "frame \(n) must be between 0 and \(info.frames - 1)", field: "frame")
            }
            time = rate.time(ofFrame: n)
        }
        do {
            let png = try framePNG(time: time, scale: scale, stored: stored)
            var r = HTTPResponse(status: 200, contentType: "image/png", body: png)
            r.headers.append(("Cache-Control", "no-store"))
            r.headers.append(("X-Strata-Time", formatted(time)))
            return r
        } catch {
            return .error(500, "the frame at \(formatted(time)) s cannot be rendered: \(fieldOf(error).message)")
        }
    }

    /// The rows of a CSV file beside the template (one the studio listed itself in `files`:
    /// the name is looked up in that list, never joined to a path as sent), at most 1000.
    private func rows(_ request: HTTPRequest) -> HTTPResponse {
        guard let name = request.query["file"] else { return .error(400, "give the CSV file's name, file=NAME", field: "file") }
        let doc = lock.locked { document }
        guard let folder = doc.assetFolder, let listed = doc.assetFiles.first(where: { $0 == name }),
              listed.lowercased().hasSuffix(".csv") else {
            return .error(404, "\"\(name.prefix(80))\" is not a CSV file beside the template (files: \(doc.assetFiles.filter { $0.lowercased().hasSuffix(".csv") }.joined(separator: ", ")))", field: "file")
        }
        do {
            let rows = try DataRows.csv(contentsOf: folder.appendingPathComponent(listed, isDirectory: false))
            var columns: [String] = []
            for row in rows.prefix(1) { columns = row.fields.keys.sorted() }
            return .json(["file": listed, "columns": columns, "count": rows.count,
                          "rows": rows.prefix(1000).map { ["line": $0.line, "fields": $0.fields] as [String: Any] }])
        } catch {
            return .error(422, "\(error)", field: "file")
        }
    }

    /// A contact sheet: the PNG `strata sheet TARGET --count N --columns C --reduction R --scale S`
    /// writes.
    private func sheet(_ request: HTTPRequest) -> HTTPResponse {
        let q = request.query
        for name in q.keys where !["count", "columns", "reduction", "scale", "labels", "v"].contains(name) {
            return .error(400, "unknown query field \"\(name.prefix(40))\" (fields: count, columns, reduction, scale)", field: name)
        }
        var numbers: [String: Int] = ["count": 12, "columns": 4, "reduction": 4]
        for (name, range) in [("count", 1...400), ("columns", 1...100), ("reduction", 1...64)] {
            guard let text = q[name] else { continue }
            guard let n = Int(text), range.contains(n) else {
                return .error(400, "\(name) \"\(text.prefix(40))\" must be a whole number from \(range.lowerBound) to \(range.upperBound)", field: name)
            }
            numbers[name] = n
        }
        var scale = configuration.defaultScale
        if let s = q["scale"] {
            guard let v = Double(s), v.isFinite, v > 0, v <= 8 else { return .error(400, "scale \"\(s.prefix(40))\" must be a number in (0, 8]", field: "scale") }
            scale = v
        }
        // Each cell labelled with its time and frame, as `strata sheet` does; labels=0 leaves them out.
        var labels = true
        if let l = q["labels"] {
            guard l == "0" || l == "1" else { return .error(400, "labels \"\(l.prefix(40))\" must be 0 or 1", field: "labels") }
            labels = l == "1"
        }
        return renderLock.locked { () -> HTTPResponse in
            do {
                let (s, _) = try self.scene(scale: scale)
                do { try s.validated() } catch { return .error(400, "at scale \(formatted(scale)): \(error)", field: "scale") }
                let png = try s.contactSheet(count: numbers["count"]!, columns: numbers["columns"]!, reduction: numbers["reduction"]!,
                                             labels: labels).pngData()
                var r = HTTPResponse(status: 200, contentType: "image/png", body: png)
                r.headers.append(("Cache-Control", "no-store"))
                return r
            } catch {
                return .error(500, "the contact sheet cannot be rendered: \(fieldOf(error).message)")
            }
        }
    }

    /// The presentation of the layer named `name` at `t`: its bounds in scene points and its
    /// presentation values (what the page outlines and lists).
    private func layer(_ request: HTTPRequest) -> HTTPResponse {
        let q = request.query
        for name in q.keys where !["name", "t"].contains(name) {
            return .error(400, "unknown query field \"\(name.prefix(40))\" (fields: name, t)", field: name)
        }
        guard let name = q["name"], !name.isEmpty else { return .error(400, "give the layer's name=", field: "name") }
        guard let text = q["t"], let t = Double(text), t.isFinite else { return .error(400, "t must be a number of seconds", field: "t") }
        return renderLock.locked { layerLocked(name: name, t: t) }
    }

    /// `layer` with the render lock held.
    private func layerLocked(name: String, t: Double) -> HTTPResponse {
        let scene: Scene
        do { (scene, _) = try self.scene(scale: 1) } catch { return .error(500, fieldOf(error).message) }
        guard t >= 0, t <= scene.duration else {
            return .error(400, "t \(formatted(t)) must be between 0 and the duration \(formatted(scene.duration))", field: "t")
        }
        guard let model = scene.layer(named: name) else { return .error(404, "no layer named \"\(name.prefix(60))\"", field: "name") }
        let p: CALayer
        do {
            guard let found = try scene.presentation(of: model, at: t) else { return .error(404, "the layer \"\(name.prefix(60))\" is not shown", field: "name") }
            p = found
        } catch {
            return .error(500, "the presentation at \(formatted(t)) s cannot be made: \(fieldOf(error).message)")
        }
        let box = p.convert(p.bounds, to: nil)
        func finite(_ v: CGFloat) -> Double { Double(v).isFinite ? Double(v) : 0 }
        let m = p.transform
        var values: [String: Any] = [
            "position": [finite(p.position.x), finite(p.position.y)],
            "bounds": [finite(p.bounds.origin.x), finite(p.bounds.origin.y), finite(p.bounds.width), finite(p.bounds.height)],
            "anchorPoint": [finite(p.anchorPoint.x), finite(p.anchorPoint.y)],
            "opacity": Double(p.opacity), "zPosition": finite(p.zPosition), "isHidden": p.isHidden,
            "cornerRadius": finite(p.cornerRadius),
        ]
        if m != CATransform3DIdentity {
            values["transform"] = [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24,
                                   m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44].map(finite)
        }
        let frame: Any = box.isNull || !box.width.isFinite || !box.height.isFinite ? NSNull()
            : [finite(box.origin.x), finite(box.origin.y), finite(box.width), finite(box.height)]
        return .json(["name": name, "type": String(describing: type(of: model)), "t": t, "frame": frame, "values": values])
    }

    private func setParameters(_ request: HTTPRequest) -> HTTPResponse {
        if let type = request.headers["content-type"], !type.lowercased().hasPrefix("application/json") {
            return .error(415, "send the values as application/json", field: "content-type")
        }
        guard let any = try? JSONSerialization.jsonObject(with: request.body, options: [.fragmentsAllowed]) else {
            return .error(400, "the body is not JSON: expected an object of parameter values", field: "body")
        }
        guard let object = any as? [String: Any] else {
            return .error(400, "expected a JSON object of parameter values", field: "body")
        }
        let (doc, current) = lock.locked { (document, overrides) }
        var values = current
        if let schema = doc.parametersSchema, let s = try? JSONSerialization.jsonObject(with: schema) as? [String: Any],
           let properties = s["properties"] as? [String: Any] {
            if let unknown = object.keys.sorted().first(where: { properties[$0] == nil }) {
                return .error(400, "unknown parameter \"\(unknown.prefix(60))\" (parameters: \(properties.keys.sorted().joined(separator: ", ")))", field: unknown)
            }
        } else if let first = object.keys.sorted().first {
            return .error(400, "this target takes no parameters", field: first)
        }
        for (k, v) in object {
            if v is NSNull { values.removeValue(forKey: k) } else { values[k] = v }
        }
        // The command line's text values of the parameters set here no longer apply.
        var doc2 = doc
        for k in values.keys { doc2.commandLineValues.removeValue(forKey: k) }
        do {
            _ = try makeScene(document: doc2, overrides: values, scale: 1)
        } catch {
            let (field, message) = fieldOf(error)
            return .error(422, message, field: field ?? object.keys.sorted().first ?? "body")
        }
        let gen = lock.locked { () -> Int in
            overrides = values
            document.commandLineValues = doc2.commandLineValues
            generation += 1
            return generation
        }
        broadcast("parameters", ["generation": gen])
        return .json(["generation": gen, "values": currentValues(doc2, values)])
    }

    private func startRender(_ request: HTTPRequest) -> HTTPResponse {
        guard let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] else {
            return .error(400, "expected a JSON object {\"output\": \"name.mp4\", …}", field: "body")
        }
        let (doc, values) = lock.locked { (document, overrides) }
        do {
            let id = try renders.submit(object) { scale in try self.makeScene(document: doc, overrides: values, scale: scale) }
            return .json(renders.status(id: id) ?? ["id": id], status: 202)
        } catch let e as FieldError {
            return .error(400, e.message, field: e.field)
        } catch {
            return .error(500, "\(error)")
        }
    }

    // MARK: Events

    private func eventStream() -> HTTPResponse {
        events.response { [self] in
            let (gen, error) = lock.locked { (generation, lastError) }
            var hello: [String: Any] = ["generation": gen]
            if let error { hello["error"] = error }
            return hello
        }
    }

    private func broadcast(_ name: String, _ object: [String: Any]) { events.broadcast(name, object) }

    // MARK: Hot reload

    /// Reads the target again; on success the new scene replaces the old (the page's values are
    /// kept), else the error is pushed and the last good scene stays.
    func reload() {
        let (values, oldFiles, cliValues) = lock.locked { (overrides, document.watchedFiles, document.commandLineValues) }
        do {
            var doc = try target.load()
            doc.commandLineValues = doc.commandLineValues.filter { cliValues[$0.key] != nil && values[$0.key] == nil }
            _ = try makeScene(document: doc, overrides: values, scale: 1)
            let gen = lock.locked { () -> Int in
                document = doc
                generation += 1
                lastError = nil
                return generation
            }
            configuration.log("studio: reloaded \(doc.name)")
            broadcast("reload", ["generation": gen])
        } catch {
            let (field, message) = fieldOf(error)
            lock.locked {
                lastError = message
                // Keep watching what the last good reading watched (and the files that failed).
                document.watchedFiles = oldFiles
            }
            configuration.log("studio: error: \(message)")
            var object: [String: Any] = ["message": message]
            if let field { object["field"] = field }
            broadcast("error", object)
        }
    }
}

func formatted(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}

func isLoopback(_ host: String) -> Bool {
    host == "127.0.0.1" || host == "localhost" || host == "::1" || host.hasPrefix("127.")
}

private func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var d: UInt8 = 0
    for i in x.indices { d |= x[i] ^ y[i] }
    return d == 0
}

/// The safety checks every request passes first (the studio's and a supervisor's): a Host that
/// names the address served (against DNS rebinding), an Origin of this page, and the session's
/// token on every state-changing request.
struct StudioRequestGuard {
    let host: String
    let port: Int
    let token: String

    private var allowedHosts: Set<String> {
        let p = port
        var hosts: Set<String> = ["127.0.0.1:\(p)", "localhost:\(p)", "[::1]:\(p)"]
        hosts.insert(host.contains(":") ? "[\(host)]:\(p)" : "\(host):\(p)")
        return hosts
    }

    /// Whether `name` (a Host header) names the address served: a name we bind, or (when bound
    /// beyond loopback) an IP literal with our port — never a DNS name that could be rebound.
    func hostAllowed(_ name: String) -> Bool {
        let name = name.lowercased()
        if allowedHosts.contains(name) { return true }
        guard !isLoopback(host) else { return false }
        guard let colon = name.lastIndex(of: ":"), name[name.index(after: colon)...] == "\(port)" else { return false }
        var address = String(name[..<colon])
        if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, address, &v4) == 1 || inet_pton(AF_INET6, address, &v6) == 1
    }

    /// The 4xx answer to a request that fails a check (nil: it passes). `url` is the page's address.
    func refusal(of request: HTTPRequest, url: String) -> HTTPResponse? {
        guard let name = request.headers["host"] else {
            return .error(400, "the Host header is required", field: "host")
        }
        guard hostAllowed(name) else {
            return .error(403, "the Host \"\(name.prefix(100))\" is not the address this studio serves (\(url)); requests through other names are refused", field: "host")
        }
        if let origin = request.headers["origin"], origin != "null" || request.method == "POST" {
            let bare = origin.hasPrefix("http://") ? String(origin.dropFirst(7)) : ""
            guard !bare.isEmpty, hostAllowed(bare) else {
                return .error(403, "the Origin \"\(origin.prefix(100))\" is not this studio's page", field: "origin")
            }
        }
        if request.method == "POST" || request.method == "DELETE" || request.method == "PUT" {
            guard let sent = request.headers["x-strata-token"] else {
                return .error(403, "a state-changing request needs the session's X-Strata-Token header (the page has it)", field: "x-strata-token")
            }
            guard constantTimeEqual(sent, token) else {
                return .error(403, "the X-Strata-Token does not match this session's", field: "x-strata-token")
            }
        }
        return nil
    }
}

struct FrameKey: Hashable {
    let generation: Int
    let scale: Double
    let time: Double
    let stored: Bool
}

/// The most recent frames' PNGs (playback loops and scrubbing back ask for them again), at most
/// `capacity` bytes (uncompressed 1920×1080 frames are 8 MB each).
struct FrameCache {
    let capacity: Int
    private var entries: [FrameKey: Data] = [:]
    private var order: [FrameKey] = []
    private var bytes = 0

    init(capacity: Int) { self.capacity = capacity }

    mutating func get(_ key: FrameKey) -> Data? {
        guard let d = entries[key] else { return nil }
        if let i = order.firstIndex(of: key) { order.remove(at: i); order.append(key) }
        return d
    }

    mutating func put(_ key: FrameKey, _ data: Data) {
        guard data.count <= capacity else { return }
        if let old = entries[key] { bytes -= old.count } else { order.append(key) }
        entries[key] = data
        bytes += data.count
        while bytes > capacity, !order.isEmpty {
            let oldest = order.removeFirst()
            bytes -= entries.removeValue(forKey: oldest)?.count ?? 0
        }
    }
}
