// Batch rendering: one template and a table of rows (CSV with a header, or JSON Lines) make one
// video per row, named by an expression of the row (`{{id}}.mp4`). Rows are rendered by `jobs`
// threads at once (each with its share of the tile workers); a malformed row is reported (row
// number, field, reason) and skipped while the others render; `shard` picks every N-th row so
// several machines split a batch without talking to each other; `resume` skips rows whose file
// exists (files appear only when complete). The report says what happened to every row.
import Foundation

/// One row of batch data.
public struct BatchRow: Sendable {
    /// 1-based, not counting the header.
    public let number: Int
    /// The line in the data file.
    public let line: Int
    let arguments: TemplateArguments
    /// The row's fields, for the output name.
    let fields: [String: TemplateValue]
    /// Why the row cannot be used ("file:line: expected 4 fields …"), found while reading it.
    let problem: String?
}

/// What happened to one row.
public struct BatchItem: Codable, Sendable {
    /// How a row ended.
    public enum Status: String, Codable, Sendable {
        /// Its video was written.
        case rendered
        /// `resume` found its output already there; nothing was rendered.
        case skipped
        /// It could not be rendered (a malformed row, a bad value, its `rowTimeout`, an export
        /// error); `error` says why.
        case failed
        /// A signal or the batch's timeout stopped it, or kept it from starting.
        case interrupted
    }
    /// The row's number, 1-based, not counting the header.
    public var row: Int
    /// The row's line in the data file.
    public var line: Int
    /// The output's file name in the output folder, once the row's name was worked out.
    public var output: String?
    /// How the row ended.
    public var status: Status
    /// Why the row failed or was interrupted (one line), nil when it rendered or was skipped.
    public var error: String?
    /// How long the row took, in seconds (nil for rows skipped or never started).
    public var seconds: Double?
}

/// The outcome of a batch.
public struct BatchReport: Codable, Sendable {
    /// The template's file path.
    public var template: String
    /// The data file, as named.
    public var data: String
    /// The shard rendered, `"index/count"`, or nil for all rows.
    public var shard: String?
    /// The rows this run handled (the shard's).
    public var rows: Int
    /// Rows whose video was written.
    public var rendered: Int
    /// Rows skipped because their output was already there (`resume`).
    public var skipped: Int
    /// Rows that failed.
    public var failed: Int
    /// Rows stopped by a signal, and rows not started because of it.
    public var interrupted: Int
    /// "interrupted by SIGTERM" when a signal stopped the batch.
    public var stopped: String?
    /// The batch's wall-clock time in seconds.
    public var seconds: Double
    /// What happened to each row, in row order.
    public var items: [BatchItem]
}

/// How a batch runs.
public struct BatchOptions: Sendable {
    /// The folder the videos are written to.
    public var outputFolder: URL
    /// The file name of a row's output: an expression template over the row's fields, `index`
    /// (0-based) and `row` (1-based).
    public var name: String = "{{row}}.mp4"
    /// How many rows render at once, each on its own thread; nil (the default): one per core,
    /// no more than there are rows nor than the memory available holds (`automaticJobs`).
    public var jobs: Int?
    /// Threads of each row's H.264/HEVC/VP9 encoder (1...64), and of its GIF codings; 1 by
    /// default, replacing `export.video.encoderThreads` and `export.gif.codingThreads`. The batch's parallelism is its jobs: one single-threaded
    /// encoder per core wastes nothing on keeping frame threads in step and holds no frames for
    /// them, and, being fixed, gives the same bytes whatever `jobs`, shard or machine.
    public var encoderThreads = 1
    /// The most frames each row's H.264 encoder looks ahead (x264's `rc-lookahead`); 20 by
    /// default (medium's own is 40): x264's lookahead holds about 6.6 MB a frame at 1920×1080,
    /// most of a job's memory. An `export.video.lookahead` or preset with a shorter one keeps
    /// it; nil keeps theirs whatever it is.
    public var lookahead: Int? = 20
    /// Render only rows with (row − 1) mod count == index.
    public var shard: (index: Int, count: Int)?
    /// Whether rows whose output file already exists are skipped (default false); outputs appear
    /// only when complete, so an existing file is a finished one.
    public var resume = false
    /// Values for every row (`--set`), over the row's own.
    public var fixed: [String: String] = [:]
    /// Folders besides the template's own that its file parameters may lead into (`--allow-assets`).
    public var allowAssets: [URL] = []
    /// Export settings of every row. Its `render.workers` is replaced by `workersPerJob`.
    public var export = ExportOptions()
    /// Tile workers of each job; nil: the cores shared among the jobs (at least one each), so that
    /// `jobs` videos at once do not start `jobs` times as many threads as there are cores.
    public var workersPerJob: Int?
    /// Changes every row's composition before it is compiled (size, frame rate, duration).
    public var adjust: (@Sendable (inout Composition) -> Void)?
    /// Pixels per point of the outputs.
    public var contentsScale: CGFloat = 1
    /// The limits every row's scene renders under.
    public var limits = SceneLimits()
    /// The most seconds one row may take (`--row-timeout`): past it the row stops at its next
    /// frame and fails, naming the timeout; the others render. Filling in and compiling the
    /// row's template are bounded by `limits`.
    public var rowTimeout: Double?
    /// Called (from job threads) as rows start, make progress and end.
    public var events: (@Sendable (BatchEvent) -> Void)?

    /// Options writing into `outputFolder`, with the defaults for everything else.
    public init(outputFolder: URL) { self.outputFolder = outputFolder }
}

/// Progress of a batch.
public enum BatchEvent: Sendable {
    /// A row began rendering on job `job`; `output` is its file name.
    case started(row: Int, output: String, job: Int)
    /// A row's export reported progress (frames done of the total).
    case progress(row: Int, job: Int, ExportProgress)
    /// A row ended; `done` counts the rows finished so far (rendered, skipped or failed, not
    /// interrupted).
    case finished(BatchItem, done: Int, total: Int)
}

/// Renders a template once per row of a data table (see the file's header and `BatchOptions`).
public enum BatchRenderer {
    /// The tile workers of each of `jobs` jobs on `cores` cores: `perJob` when given, otherwise
    /// the cores shared among the jobs, at least one each. (Each job starting its own set of one
    /// per core oversubscribed them: with --jobs 2 on 2 cores, 4 lower-third videos took 8.5 s
    /// against 7.6 s, medians of 5 rounds.)
    static func workers(perJob: Int?, jobs: Int, cores: Int) -> Int {
        perJob ?? max(1, cores / max(1, jobs))
    }

    /// The number of jobs when none is given: one per core, at most one per row, and no more
    /// than fit in half of `availableBytes` at `bytesPerJob` each; at least one.
    static func automaticJobs(cores: Int, rows: Int, availableBytes: Int?, bytesPerJob: Int) -> Int {
        var jobs = max(1, min(cores, rows))
        if let availableBytes, bytesPerJob > 0 { jobs = min(jobs, max(1, availableBytes / 2 / bytesPerJob)) }
        return jobs
    }

    /// About how many bytes one job takes at `width`×`height` pixels with an H.264 lookahead of
    /// `lookahead` frames: x264's frames (the lookahead's, each with its quarter-size copy, about
    /// 3.2 bytes a pixel, and a dozen more for B-frames, references and the frame being coded),
    /// the renderer's RGBA and YUV frames, and 48 MiB for the rest.
    static func bytesPerJob(width: Int, height: Int, lookahead: Int) -> Int {
        let pixels = width * height
        return pixels * 16 * (lookahead + 12) / 5 + pixels * 40 + (48 << 20)
    }

    /// The export options of every row: `export` with `workers` tile workers and the batch's
    /// encoder settings (`BatchOptions.encoderThreads`, `lookahead`); a GIF row's frames wait in
    /// its spool file rather than in memory (`GIFEncoderOptions.spoolMemoryLimit` 0), so that a
    /// job's memory is what `automaticJobs` counts.
    static func rowExport(_ export: ExportOptions, workers: Int, encoderThreads: Int, lookahead: Int?) -> ExportOptions {
        var export = export
        export.render.workers = workers
        export.video.encoderThreads = encoderThreads
        export.gif.codingThreads = encoderThreads
        export.gif.spoolMemoryLimit = 0
        if let cap = lookahead {
            let presetLookahead = x264Lookahead[export.video.preset] ?? 40
            export.video.lookahead = min(export.video.lookahead ?? presetLookahead, cap)
        }
        return export
    }

    /// x264's `rc-lookahead` of each preset.
    static let x264Lookahead = ["ultrafast": 0, "superfast": 0, "veryfast": 10, "faster": 20, "fast": 30, "medium": 40,
                                "slow": 50, "slower": 60, "veryslow": 60, "placebo": 60]

    /// Reads rows from a CSV (first line: column names) or JSON Lines file (`.jsonl`, `.ndjson`).
    /// A row with the wrong number of fields, or a line that is not a JSON object, is kept with its
    /// problem (the batch reports it and goes on); a file that cannot be read or whose structure
    /// is broken (an unclosed quote) throws.
    /// The file must be a regular file within `limits.dataFileBytes`, each value within
    /// `limits.dataValueBytes` (a row with a longer one is reported; a CSV file fails).
    public static func rows(contentsOf url: URL, limits: SceneLimits = SceneLimits()) throws -> [BatchRow] {
        let text = try DataFiles.text(of: url, limits: limits)
        let ext = url.pathExtension.lowercased()
        let name = url.lastPathComponent
        if ext == "jsonl" || ext == "ndjson" {
            return DataFiles.jsonLineRows(text, limits: limits).enumerated().map { i, row in
                guard case .object(let o)? = row.value else {
                    return BatchRow(number: i + 1, line: row.line, arguments: TemplateArguments(), fields: [:],
                                    problem: "\(name):\(row.line): \(row.problem ?? "expected a JSON object on the line")")
                }
                var a = TemplateArguments()
                a.json = o
                return BatchRow(number: i + 1, line: row.line, arguments: a, fields: o, problem: nil)
            }
        }
        guard ext == "csv" || ext.isEmpty else {
            throw DataFileError(file: url.path, line: nil, message: "expected a .csv or .jsonl file")
        }
        return try DataFiles.csvRows(text, file: url.path, limits: limits).enumerated().map { i, row in
            BatchRow(number: i + 1, line: row.line, arguments: TemplateArguments(text: row.fields),
                     fields: row.fields.mapValues { .string($0) }, problem: row.problem.map { "\(name):\(row.line): \($0)" })
        }
    }

    /// The fields of `rows` that are not parameters of `template` (they serve only in output
    /// names), sorted: worth a note, since a misspelt column would otherwise pass unnoticed.
    public static func columnsNotParameters(_ template: Template, rows: [BatchRow]) -> [String] {
        let known = Set(template.parameters.map(\.name))
        return Set(rows.flatMap(\.fields.keys)).subtracting(known).sorted()
    }

    /// Renders the rows; never throws for a row (its failure is in the report).
    public static func run(_ template: Template, rows allRows: [BatchRow], options: BatchOptions, dataName: String) -> BatchReport {
        let started = Date()
        // Partial files of earlier runs whose process is gone (a batch that was killed).
        TemporaryOutput.removeAbandoned(in: options.outputFolder)
        let rows = options.shard.map { s in allRows.filter { ($0.number - 1) % s.count == s.index } } ?? allRows
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // One media context for every row: each row's scene decodes under the batch's limits and
        // a file shown by every row is decoded once, also in an image cache of its own size.
        let media = options.limits.makeMediaContext()
        var export = rowExport(options.export, workers: 1, encoderThreads: options.encoderThreads, lookahead: options.lookahead)
        let jobs: Int
        if let given = options.jobs {
            jobs = max(1, min(given, max(1, rows.count)))
        } else {
            // The memory a job takes follows the frame size: the first row that makes a scene tells it.
            let lookahead = export.video.lookahead ?? x264Lookahead[export.video.preset] ?? 40
            let perJob = rows.lazy.compactMap { try? makeScene(template, $0, options: options, media: media) }.first
                .map { bytesPerJob(width: $0.pixelWidth, height: $0.pixelHeight, lookahead: lookahead) }
            jobs = automaticJobs(cores: cores, rows: rows.count, availableBytes: SystemMemory.availableBytes(), bytesPerJob: perJob ?? 0)
        }
        export.render.workers = workers(perJob: options.workersPerJob, jobs: jobs, cores: cores)
        let frozen = export
        // Output names are claimed over the whole table, before any shard or job starts: of rows
        // sharing a name the first keeps it, whatever the shard, job count or timing.
        var firstRows: [String: Int] = [:]
        for row in allRows where row.problem == nil {
            if let name = try? outputName(options.name, scope: nameScope(row)), firstRows[name] == nil { firstRows[name] = row.number }
        }
        let state = BatchState(count: rows.count, firstRows: firstRows)
        let threads = (0..<jobs).map { job in
            Thread {
                while options.export.cancellation?.isCancelled != true, let i = state.next() {
                    let item = render(template, rows[i], job: job, options: options, export: frozen, media: media, names: state)
                    let done = state.finish(i, item)
                    options.events?(.finished(item, done: done, total: rows.count))
                }
                state.jobEnded()
            }
        }
        for t in threads { t.stackSize = 8 << 20; t.start() }
        state.waitForJobs(jobs)
        // Rows a signal kept from starting are listed as interrupted too.
        let items = state.items.enumerated().map { i, item in
            item ?? BatchItem(row: rows[i].number, line: rows[i].line, output: nil, status: .interrupted,
                              error: options.export.cancellation?.reason, seconds: nil)
        }
        return BatchReport(template: template.url.path, data: dataName,
                           shard: options.shard.map { "\($0.index)/\($0.count)" }, rows: rows.count,
                           rendered: items.filter { $0.status == .rendered }.count,
                           skipped: items.filter { $0.status == .skipped }.count,
                           failed: items.filter { $0.status == .failed }.count,
                           interrupted: items.filter { $0.status == .interrupted }.count,
                           stopped: options.export.cancellation?.reason,
                           seconds: Date().timeIntervalSince(started), items: items)
    }

    private static func render(_ template: Template, _ row: BatchRow, job: Int, options: BatchOptions,
                               export: ExportOptions, media: MediaContext, names: BatchState) -> BatchItem {
        var item = BatchItem(row: row.number, line: row.line, output: nil, status: .failed, error: nil, seconds: nil)
        let started = Date()
        var export = export
        if let seconds = options.rowTimeout {
            export.cancellation = ExportCancellation(parent: export.cancellation, timeout: seconds,
                                                     timeoutReason: CommandTimeout.reason(seconds: seconds, option: "--row-timeout"))
        }
        do {
            if let problem = row.problem { throw ExpressionError(message: problem) }
            let scope = nameScope(row)
            let name = try outputName(options.name, scope: scope)
            if let first = names.firstRow(named: name), first != row.number {
                throw ExpressionError(message: "the output name \"\(name)\" is also row \(first)'s")
            }
            item.output = name
            let url = options.outputFolder.appendingPathComponent(name)
            if options.resume, FileManager.default.fileExists(atPath: url.path) {
                item.status = .skipped
                return item
            }
            options.events?(.started(row: row.number, output: name, job: job))
            let scene = try makeScene(template, row, options: options, media: media)
            let events = options.events
            let number = row.number
            export.progress = { p in events?(.progress(row: number, job: job, p)) }
            try scene.export(to: url, options: export)
            item.status = .rendered
        } catch ExportError.interrupted(_, let reason, _, _) {
            // A row's own timeout fails the row; a signal or the batch's timeout interrupts it.
            item.status = export.cancellation?.timedOut == true && options.rowTimeout != nil ? .failed : .interrupted
            item.error = reason
        } catch {
            item.error = "\(error)".replacingOccurrences(of: "\n", with: "; ")
        }
        item.seconds = Date().timeIntervalSince(started)
        return item
    }

    /// The scene of a row: its values, then `options.fixed` over them.
    private static func makeScene(_ template: Template, _ row: BatchRow, options: BatchOptions, media: MediaContext) throws -> Scene {
        if let problem = row.problem { throw ExpressionError(message: problem) }
        var arguments = row.arguments
        arguments.ignoresUnknownNames = true
        for (k, v) in options.fixed { arguments.text[k] = v }
        let scene = try template.makeScene(arguments, allowAssets: options.allowAssets, limits: options.limits, media: media,
                                           adjust: options.adjust)
        scene.contentsScale = options.contentsScale
        scene.limits = options.limits
        return scene
    }

    /// What `--name` sees: the row's fields, `row` (from 1) and `index` (from 0).
    static func nameScope(_ row: BatchRow) -> [String: TemplateValue] {
        var scope = row.fields
        scope["row"] = .number(Double(row.number))
        scope["index"] = .number(Double(row.number - 1))
        return scope
    }

    /// The row's file name: the name template filled in; a plain file name.
    static func outputName(_ pattern: String, scope: [String: TemplateValue]) throws -> String {
        var expansion = TemplateExpansion(file: "--name")
        guard let node = expansion.expand(TemplateNode(.string(pattern)), path: "--name", scope: scope), expansion.errors.isEmpty else {
            throw ExpressionError(message: "--name \"\(pattern)\": " + expansion.errors.map(\.message).joined(separator: "; "))
        }
        let name: String
        switch node.value {
        case .string(let s): name = s
        // A pattern that is one expression gives its value: `{{row}}` is the number 1.
        case .number(let n) where n.isFinite: name = n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .null: throw ExpressionError(message: "--name \"\(pattern)\" gives null, not a file name")
        case .bool: throw ExpressionError(message: "--name \"\(pattern)\" gives true or false, not a file name")
        case .number: throw ExpressionError(message: "--name \"\(pattern)\" gives a number that is not finite, not a file name")
        case .array, .object: throw ExpressionError(message: "--name \"\(pattern)\" gives a list or an object, not a file name")
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .lineSeparator
                                                 || $0.properties.generalCategory == .paragraphSeparator }) {
            throw ExpressionError(message: "the output name \(name.debugDescription) has a line break or control character (names are plain file names)")
        }
        guard !name.isEmpty, !name.contains("/"), name != ".", name != "..", !name.hasPrefix(".") else {
            throw ExpressionError(message: "the output name \"\(name)\" must be a plain file name (no folders, not hidden)")
        }
        return name
    }
}

/// Shared state of a batch's jobs.
// @unchecked: the counters and `items` are touched only with `lock` held; a condition variable, not
// a Mutex, because `waitForJobs` waits.
private final class BatchState: @unchecked Sendable {
    private let lock = NSCondition()
    private var nextIndex = 0
    private let count: Int
    private var storedItems: [BatchItem?]
    var items: [BatchItem?] { lock.lock(); defer { lock.unlock() }; return storedItems }
    private var done = 0
    private var ended = 0
    /// The first row of the whole table to have each output name.
    private let firstRows: [String: Int]

    init(count: Int, firstRows: [String: Int]) {
        self.count = count
        self.firstRows = firstRows
        storedItems = Array(repeating: nil, count: count)
    }

    func firstRow(named name: String) -> Int? { firstRows[name] }

    func next() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard nextIndex < count else { return nil }
        nextIndex += 1
        return nextIndex - 1
    }

    /// Records row `i`'s outcome; returns the rows done so far (an interrupted row is not done).
    func finish(_ i: Int, _ item: BatchItem) -> Int {
        lock.lock(); defer { lock.unlock() }
        storedItems[i] = item
        if item.status != .interrupted { done += 1 }
        return done
    }

    func jobEnded() {
        lock.lock()
        ended += 1
        lock.broadcast()
        lock.unlock()
    }

    func waitForJobs(_ n: Int) {
        lock.lock()
        while ended < n { lock.wait() }
        lock.unlock()
    }
}

/// The memory a batch may still use: the system's available memory (`MemAvailable`), or less
/// when the process's control group (a container's limit, cgroup v2) leaves less; nil where
/// neither can be read (then jobs are not limited by memory).
enum SystemMemory {
    static func availableBytes() -> Int? {
        func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
        var result: Int?
        if let meminfo = read("/proc/meminfo"),
           let line = meminfo.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
           let kib = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) {
            result = kib * 1024
        }
        if let max = read("/sys/fs/cgroup/memory.max").flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
           let current = read("/sys/fs/cgroup/memory.current").flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            let left = Swift.max(0, max - current)
            result = Swift.min(result ?? left, left)
        }
        return result
    }
}
