// The studio's render queue: jobs rendered one after another with the command line's export
// options, each writing one file in the output folder — a bare file name checked character by
// character, never a path from the request joined to the file system. Progress, ETA, cancel;
// a cancelled or failed export leaves no partial file (the export writes to a temporary name).
import Foundation
import Strata

// @unchecked: `jobs`, `nextID`, `workerStarted`, `stopping` and every job's mutable fields are
// read and written only inside `lock.locked`.
final class StudioRenders: @unchecked Sendable {
    static let formats = ["mp4", "mov", "webm", "webp", "gif"]
    static let maximumJobs = 100

    let outputFolder: URL
    let baseOptions: ExportOptions
    private let lock = StudioLock()
    private var jobs: [Job] = []
    private var nextID = 1
    private var workerStarted = false
    private var stopping = false
    private let wake = DispatchSemaphore(value: 0)
    private let idle = DispatchSemaphore(value: 0)

    // @unchecked: the `var`s change only inside the queue's `lock.locked`; the rest never does.
    final class Job: @unchecked Sendable {
        let id: String
        let name: String
        let url: URL
        let scale: Double
        let range: Range<Int>?
        let crf: Int?
        let preset: String?
        let makeScene: (Double) throws -> Scene
        let cancellation = ExportCancellation()
        var state = "queued"
        var framesDone = 0
        var frameCount = 0
        var framesPerSecond = 0.0
        var secondsRemaining = 0.0
        var error: String?
        let created = Date()

        init(id: String, name: String, url: URL, scale: Double, range: Range<Int>?, crf: Int?, preset: String?, makeScene: @escaping (Double) throws -> Scene) {
            self.id = id; self.name = name; self.url = url; self.scale = scale; self.range = range
            self.crf = crf; self.preset = preset; self.makeScene = makeScene
        }
    }

    init(outputFolder: URL, baseOptions: ExportOptions) {
        self.outputFolder = outputFolder
        self.baseOptions = baseOptions
    }

    /// Checks a request `{output, scale?, from?, to?, crf?, preset?}` and queues it; returns its id.
    func submit(_ object: [String: Any], makeScene: @escaping (Double) throws -> Scene) throws -> String {
        let known: Set<String> = ["output", "scale", "from", "to", "crf", "preset"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw FieldError(field: unknown, message: "unknown field \"\(unknown.prefix(40))\" (fields: \(known.sorted().joined(separator: ", ")))")
        }
        guard let name = object["output"] as? String else {
            throw FieldError(field: "output", message: "output must be a file name such as \"clip.mp4\"")
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        let ext = (name as NSString).pathExtension.lowercased()
        guard !name.isEmpty, name.count <= 120, name.allSatisfy({ allowed.contains($0) }), !name.hasPrefix("."), !name.hasPrefix("-"),
              Self.formats.contains(ext) else {
            throw FieldError(field: "output", message: "output \"\(name.prefix(60))\" must be a bare file name (letters, digits, . _ -) ending in .\(Self.formats.joined(separator: ", ."))")
        }
        var scale = 1.0
        if let s = object["scale"] {
            guard let n = s as? NSNumber, !isJSONBoolean(n), case let v = n.doubleValue, v.isFinite, v > 0, v <= 8 else {
                throw FieldError(field: "scale", message: "scale must be a number in (0, 8]")
            }
            scale = v
        }
        func integer(_ key: String) throws -> Int? {
            guard let v = object[key] else { return nil }
            guard let n = v as? NSNumber, !isJSONBoolean(n), let i = Int(exactly: n.doubleValue) else {
                throw FieldError(field: key, message: "\(key) must be a whole number")
            }
            return i
        }
        let from = try integer("from"), to = try integer("to"), crf = try integer("crf")
        if let crf, !(0...51).contains(crf) { throw FieldError(field: "crf", message: "crf \(crf) must be between 0 and 51") }
        var preset: String?
        if let p = object["preset"] {
            guard let text = p as? String, VideoEncoderOptions.presets.contains(text) else {
                throw FieldError(field: "preset", message: "preset must be one of \(VideoEncoderOptions.presets.joined(separator: ", "))")
            }
            preset = text
        }
        // The scene now, so that a range is checked against its frames.
        let probe: Scene
        do { probe = try makeScene(scale) } catch { throw FieldError(field: "scale", message: "\(error)") }
        let frames = probe.frameCount
        var range: Range<Int>?
        if from != nil || to != nil {
            let lo = from ?? 0, hi = to ?? frames - 1
            guard lo >= 0, lo < frames else { throw FieldError(field: "from", message: "from \(lo) must be a frame between 0 and \(frames - 1)") }
            guard hi >= lo, hi < frames else { throw FieldError(field: "to", message: "to \(hi) must be a frame between from (\(lo)) and \(frames - 1)") }
            range = lo..<(hi + 1)
        }
        let url = outputFolder.appendingPathComponent(name, isDirectory: false)
        let (id, startWorker) = try lock.lockedThrowing { () -> (String, Bool) in
            guard !stopping else { throw FieldError(field: "output", message: "the studio is stopping") }
            guard jobs.filter({ $0.state == "queued" || $0.state == "running" }).count < Self.maximumJobs else {
                throw FieldError(field: "output", message: "the queue holds \(Self.maximumJobs) jobs already")
            }
            let id = String(nextID)
            nextID += 1
            jobs.append(Job(id: id, name: name, url: url, scale: scale, range: range, crf: crf, preset: preset, makeScene: makeScene))
            defer { workerStarted = true }
            return (id, !workerStarted)
        }
        if startWorker {
            let t = Thread { [self] in work() }
            t.name = "studio-render"
            t.start()
        }
        wake.signal()
        return id
    }

    private func work() {
        while true {
            wake.wait()
            let (stop, next) = lock.locked { () -> (Bool, Job?) in
                if stopping { return (true, nil) }
                let job = jobs.first { $0.state == "queued" }
                job?.state = "running"
                return (false, job)
            }
            if stop { break }
            guard let job = next else { continue }
            run(job)
            // Another queued job gets its turn.
            if lock.locked({ jobs.contains { $0.state == "queued" } }) { wake.signal() }
        }
        idle.signal()
    }

    private func run(_ job: Job) {
        var options = baseOptions
        options.frameRange = job.range
        if let crf = job.crf { options.video.crf = crf }
        if let preset = job.preset { options.video.preset = preset }
        options.cancellation = job.cancellation
        options.progress = { [self] p in
            lock.locked {
                job.framesDone = p.framesDone
                job.frameCount = p.frameCount
                job.framesPerSecond = p.framesPerSecond
                job.secondsRemaining = p.secondsRemaining
            }
        }
        do {
            try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
            let scene = try job.makeScene(job.scale)
            let count = job.range?.count ?? scene.frameCount
            lock.locked { job.frameCount = count }
            try scene.export(to: job.url, options: options)
            lock.locked {
                job.state = "done"
                job.framesDone = job.frameCount
                job.secondsRemaining = 0
            }
        } catch {
            lock.locked {
                job.state = job.cancellation.isCancelled ? "cancelled" : "failed"
                job.error = "\(error)"
            }
        }
    }

    private func describe(_ job: Job) -> [String: Any] {
        var d: [String: Any] = ["id": job.id, "output": job.name, "state": job.state, "scale": job.scale,
                                "framesDone": job.framesDone, "frameCount": job.frameCount,
                                "progress": job.frameCount > 0 ? Double(job.framesDone) / Double(job.frameCount) : 0,
                                "framesPerSecond": job.framesPerSecond, "secondsRemaining": job.secondsRemaining]
        if let e = job.error { d["error"] = e }
        if job.state == "done" { d["file"] = "/api/render/\(job.id)/file" }
        return d
    }

    func status(id: String) -> [String: Any]? {
        lock.locked { jobs.first { $0.id == id }.map(describe) }
    }

    func list() -> [[String: Any]] {
        lock.locked { jobs.map(describe) }
    }

    /// Cancels a queued or running job; false when there is none with `id`.
    func cancel(id: String) -> Bool {
        lock.locked { () -> Bool in
            guard let job = jobs.first(where: { $0.id == id }) else { return false }
            if job.state == "queued" { job.state = "cancelled" }
            job.cancellation.cancel(reason: "cancelled in the studio")
            return true
        }
    }

    /// The finished file of a job (the path the job chose, not one from the request).
    func file(id: String) -> HTTPResponse {
        let (job, state) = lock.locked { () -> (Job?, String?) in
            let job = jobs.first { $0.id == id }
            return (job, job?.state)
        }
        guard let job else { return .error(404, "no render job \"\(id.prefix(40))\"", field: "id") }
        guard state == "done" else { return .error(409, "render job \(id) is \(state ?? "?"), not done", field: "id") }
        guard let data = try? Data(contentsOf: job.url, options: .alwaysMapped) else {
            return .error(404, "\(job.name) is no longer in the output folder", field: "id")
        }
        let types = ["mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm", "webp": "image/webp", "gif": "image/gif"]
        var r = HTTPResponse(status: 200, contentType: types[job.url.pathExtension.lowercased()] ?? "application/octet-stream", body: data)
        r.headers.append(("Content-Disposition", "inline; filename=\"\(job.name)\""))
        r.headers.append(("Cache-Control", "no-store"))
        return r
    }

    /// Cancels every job and waits for the running one to end (its temporary file removed).
    func stopAll() {
        let running = lock.locked { () -> Bool in
            stopping = true
            for job in jobs where job.state == "queued" || job.state == "running" {
                if job.state == "queued" { job.state = "cancelled" }
                job.cancellation.cancel(reason: "the studio stopped")
            }
            return workerStarted
        }
        if running {
            wake.signal()
            idle.wait()
        }
    }
}

/// Whether a number JSONSerialization gave is `true`/`false` (on Linux `0 is Bool` holds too:
/// only the boolean's type code tells them apart).
func isJSONBoolean(_ n: NSNumber) -> Bool {
    String(cString: n.objCType) == "c"
}
