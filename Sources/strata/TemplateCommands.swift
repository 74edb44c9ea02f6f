// Commands about templates: validate one, list and describe them, print the JSON Schema, make a
// contact sheet, and render a batch of rows.
import ArgumentParser
import Foundation
import Synchronization
import Strata

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a template (and parameter values) without rendering.",
        discussion: "Reads the template, fills it in with its defaults and any --set/--data values, checks it against the schema and compiles it. Prints every problem found as FILE:LINE PATH: MESSAGE and exits 1, or prints a summary.")

    @OptionGroup var source: SceneSource
    @Flag(help: "Print the filled-in document (every expression evaluated) as JSON instead of checking it.")
    var expanded = false

    func validate() throws {
        if source.template == nil { throw ValidationError("strata validate needs a template: strata validate TEMPLATE") }
    }

    func run() throws {
        if expanded {
            let template = try source.loadTemplate()!
            do {
                print(try template.expandedJSON(try source.arguments(), allowAssets: source.allowedAssetFolders, limits: try source.limits()))
            } catch let e as ValidationError { throw e } catch { throw CLIError(message: "\(error)") }
            return
        }
        let scene = try source.makeScene()
        let template = try source.loadTemplate()!
        print("ok: \(template.url.path): \(scene.pixelWidth)×\(scene.pixelHeight), \(scene.frameRate.map { "\($0)" } ?? "?") fps, \(formatNumber(scene.duration)) s (\(scene.frameCount) frames), \(template.parameters.count) parameter\(template.parameters.count == 1 ? "" : "s")")
    }
}

struct TemplatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "List the templates, or describe one's parameters.",
        discussion: "Templates are found in $STRATA_TEMPLATES (folders separated by ':'), ./Templates, PREFIX/share/strata/Templates for PREFIX/bin/strata (where scripts/install.sh PREFIX puts them), and /opt/strata/Templates.")

    @Argument(help: "A template to describe (name or path).")
    var template: String?
    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        if let template {
            let t: Template
            do { t = try Template(contentsOf: TemplateLibrary.locate(template)) } catch { throw CLIError(message: "\(error)") }
            describe(t)
            return
        }
        let folders = TemplateLibrary.searchFolders()
        let entries = TemplateLibrary.installed(in: folders)
        var rows: [[String: Any]] = []
        for entry in entries {
            do {
                let t = try Template(contentsOf: entry.url)
                rows.append(["name": entry.name, "path": entry.url.path, "description": t.summary ?? "", "format": format(t)])
            } catch {
                rows.append(["name": entry.name, "path": entry.url.path, "error": "\(error)"])
            }
        }
        if json {
            printJSON(["folders": folders.map(\.path), "templates": rows])
            return
        }
        if entries.isEmpty {
            print(TemplateLibrary.nothingFoundMessage())
            return
        }
        let width = entries.map(\.name.count).max() ?? 0
        for row in rows {
            let name = (row["name"] as! String).padding(toLength: width, withPad: " ", startingAt: 0)
            if let error = row["error"] as? String {
                print("\(name)  (invalid: \(error))")
            } else {
                print("\(name)  \(row["format"] as! String)  \(row["description"] as! String)")
            }
        }
        print("\nDescribe one with: strata templates NAME")
    }

    /// "1920×1080 30 fps 5 s" with the template's defaults ("?" where they do not fill it in).
    private func format(_ t: Template) -> String {
        guard let (c, _) = try? t.composition() else { return "?" }
        return "\(formatNumber(c.size[0]))×\(formatNumber(c.size[1])) \(formatNumber(c.frameRate)) fps \(formatNumber(c.duration)) s"
    }

    private func describe(_ t: Template) {
        if json {
            var parameters: [[String: Any]] = []
            for p in t.parameters {
                var d: [String: Any] = ["name": p.name, "type": p.kind.rawValue]
                if let h = p.help { d["description"] = h }
                d["default"] = p.defaultText ?? NSNull()
                if let v = p.values { d["values"] = v }
                if let m = p.minimum { d["min"] = m }
                if let m = p.maximum { d["max"] = m }
                if let m = p.maxLength { d["maxLength"] = m }
                parameters.append(d)
            }
            printJSON(["name": t.name, "path": t.url.path, "description": t.summary ?? "", "format": format(t), "parameters": parameters])
            return
        }
        print("\(t.name) — \(t.url.path)")
        if let s = t.summary { print(s) }
        print("Format (defaults): \(format(t))")
        if t.parameters.isEmpty { print("\nNo parameters."); return }
        print("\nParameters (--set NAME=VALUE):")
        for p in t.parameters { print("  " + p.summary) }
    }
}

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of the template format (or of one template's parameter values).")

    @Option(help: "Print instead the schema of this template's parameter values (a --data file, a JSON Lines row).")
    var parameters: String?

    func run() throws {
        if let parameters {
            let t: Template
            do { t = try Template(contentsOf: TemplateLibrary.locate(parameters)) } catch { throw CLIError(message: "\(error)") }
            print(t.parametersSchema)
        } else {
            print(TemplateSchema.json)
        }
    }
}

struct SheetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheet",
        abstract: "Render a contact sheet: frames at even times, in a grid, to one PNG.")

    @OptionGroup var source: SceneSource
    @Option(name: .shortAndLong, help: "Output PNG file.")
    var output: String = "sheet.png"
    @Option(parsing: .unconditional, help: "Number of frames.")
    var count: Int = 12
    @Option(parsing: .unconditional, help: "Frames per row.")
    var columns: Int = 4
    @Option(parsing: .unconditional, help: "Shrink each frame by this whole factor.")
    var reduction: Int = 4
    @OptionGroup var timing: TimeoutOptions

    func validate() throws {
        guard (1...400).contains(count) else { throw ValidationError("--count \(count) must be between 1 and 400") }
        guard (1...100).contains(columns) else { throw ValidationError("--columns \(columns) must be between 1 and 100") }
        guard (1...64).contains(reduction) else { throw ValidationError("--reduction \(reduction) must be between 1 and 64") }
        guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o '\(output)' must name a .png file") }
    }

    func run() throws {
        let timeout = timing.start()
        defer { timeout?.finish() }
        InterruptSignals.shared.install()
        let scene = try source.makeScene()
        try checkStopped(timeout, "sheet")
        let sheet: Bitmap
        do { sheet = try scene.contactSheet(count: count, columns: columns, reduction: reduction) } catch { throw CLIError(message: "\(error)") }
        try checkStopped(timeout, "sheet")
        do { try sheet.writePNG(to: URL(fileURLWithPath: output)) } catch { throw CLIError(message: "\(error)") }
        print("wrote \(output): \(sheet.width)×\(sheet.height), \(count) frames")
    }
}

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render a template once per row of a CSV or JSON Lines file.",
        discussion: """
            Each row's fields are parameter values (--set gives values for every row). A row that \
            fails (a bad value, a missing asset) is reported with its row number and reason and the \
            others render; the exit status is 1 if any row failed. Outputs appear only when complete, \
            so --resume after an interrupted batch renders only what is missing. --shard I/N renders \
            rows I, I+N, I+2N … (I from 0), so N machines split a batch with no coordination: \
            SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX is I.
            """)

    @Argument(help: "The template (path or name).")
    var template: String
    @Option(help: ArgumentHelp("The rows: a .csv file (first line: parameter names) or .jsonl (one JSON object a line).", valueName: "rows.csv|rows.jsonl"))
    var data: String
    @Option(help: ArgumentHelp("The folder for the outputs (made if missing).", valueName: "dir"))
    var out: String
    @Option(help: ArgumentHelp("Output file name, an expression of the row's fields, row (from 1) and index (from 0).", valueName: "pattern"))
    var name: String = "{{row}}.mp4"
    @Option(parsing: .unconditional, help: "Rows rendered at once (each with its share of the cores).")
    var jobs: Int = 1
    @Option(help: ArgumentHelp("Render only this share of the rows: I/N with 0 ≤ I < N.", valueName: "I/N"))
    var shard: String?
    @Flag(help: "Skip rows whose output file already exists.")
    var resume = false
    @Option(help: ArgumentHelp("Write a JSON report of every row to this file.", valueName: "report.json"))
    var report: String?
    @Option(name: .customLong("set"), help: ArgumentHelp("A parameter value for every row, KEY=VALUE (repeatable).", valueName: "key=value"))
    var values: [String] = []
    @Option(name: .customLong("allow-assets"), help: ArgumentHelp("A folder the template may read files from besides its own (repeatable).", valueName: "dir"))
    var allowAssets: [String] = []
    @Option(help: "Canvas size in points, WIDTHxHEIGHT.")
    var size: String?
    @Option(parsing: .unconditional, help: "Frames per second.")
    var fps: Double?
    @Option(parsing: .unconditional, help: "Pixels per point of the outputs.")
    var scale: Double?
    @Option(name: .customLong("limit"), help: ArgumentHelp("Raise or lower a resource limit, NAME=N (repeatable).", discussion: limitsHelp, valueName: "name=n"))
    var limitValues: [String] = []
    @OptionGroup var encoding: EncodingOptions
    @OptionGroup var progress: ProgressStyleOptions
    @OptionGroup var timing: TimeoutOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("Stop a row after this many seconds: the row fails (exit status 1) and the others render.",
                               valueName: "seconds"))
    var rowTimeout: Double?

    func validate() throws {
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs \(jobs) must be between 1 and 64") }
        if let shard { _ = try parseShard(shard) }
        if let rowTimeout { guard rowTimeout.isFinite, rowTimeout > 0, rowTimeout <= 30 * 86_400 else {
            throw ValidationError("--row-timeout \(rowTimeout) must be a number of seconds in (0, 2592000]")
        } }
    }

    func run() throws {
        let timeout = timing.start()
        defer { timeout?.finish() }
        let limits = try parseLimits(limitValues)
        let t: Template
        do { t = try Template(contentsOf: TemplateLibrary.locate(template)) } catch { throw CLIError(message: "\(error)") }
        let rows: [BatchRow]
        do { rows = try BatchRenderer.rows(contentsOf: URL(fileURLWithPath: data), limits: limits) } catch { throw CLIError(message: "\(error)") }
        let extra = BatchRenderer.columnsNotParameters(t, rows: rows)
        if !extra.isEmpty && progress.style != .json {
            let names = extra.map { "\"\($0)\"" }.joined(separator: ", ")
            FileHandle.standardError.write(Data("note: \(data): \(extra.count == 1 ? "the column" : "the columns") \(names) \(extra.count == 1 ? "is not a parameter" : "are not parameters") of \(t.name) (parameters: \(t.parameters.map(\.name).joined(separator: ", "))); usable in --name only\n".utf8))
        }
        let folder = URL(fileURLWithPath: out)
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw CLIError(message: "\(out): cannot make the output folder (\(readReason(error)))")
        }
        var options = BatchOptions(outputFolder: folder)
        options.name = name
        options.jobs = jobs
        options.shard = try shard.map(parseShard)
        options.resume = resume
        options.fixed = try parseAssignments(values)
        options.allowAssets = allowAssets.map { URL(fileURLWithPath: $0).standardizedFileURL }
        options.adjust = try makeAdjustment(size: size, fps: fps, duration: nil)
        options.contentsScale = try checkedScale(scale)
        options.limits = limits
        options.export = try encoding.exportOptions()
        options.workersPerJob = encoding.workers
        InterruptSignals.shared.install()
        options.export.cancellation = commandCancellation(timeout)
        options.rowTimeout = rowTimeout
        // One batch (or shard) at a time into the folder; released when the batch ends.
        let lock: BatchLock
        do {
            lock = try BatchLock(folder: folder, shard: options.shard, description: "strata batch \(template) --data \(data)"
                                 + (shard.map { " --shard \($0)" } ?? ""))
        } catch { throw CLIError(message: "\(error)") }
        defer { lock.release() }
        let display = BatchProgressDisplay(style: progress.style, total: rows.count)
        options.events = { display.handle($0) }
        let result = BatchRenderer.run(t, rows: rows, options: options, dataName: data)
        display.finish()
        if let report {
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                try writeAtomically(try encoder.encode(result), to: URL(fileURLWithPath: report))
            } catch {
                throw CLIError(message: "\(report): cannot write the report (\(readReason(error)))")
            }
        }
        var summary = "\(result.rendered) rendered, \(result.skipped) skipped, \(result.failed) failed"
        if result.interrupted > 0 { summary += ", \(result.interrupted) interrupted" }
        summary += " of \(result.rows) rows" + (result.shard.map { " (shard \($0))" } ?? "") + String(format: " in %.1f s", result.seconds)
        if let stopped = result.stopped { summary += "; \(stopped) (run again with --resume to continue)" }
        if progress.style == .json {
            printJSON(["event": "done", "rows": result.rows, "rendered": result.rendered, "skipped": result.skipped,
                       "failed": result.failed, "interrupted": result.interrupted, "stopped": result.stopped ?? NSNull(),
                       "seconds": result.seconds], pretty: false)
        } else {
            for item in result.items where item.status == .failed {
                FileHandle.standardError.write(Data("row \(item.row) (\(data):\(item.line)): \(item.error ?? "failed")\n".utf8))
            }
            if progress.style != .quiet || result.failed > 0 || result.stopped != nil { print(summary) }
        }
        if result.stopped != nil { throw ExitCode(stoppedStatus(timeout)) }
        if result.failed > 0 { throw ExitCode(1) }
    }
}

/// Parses `I/N` (0 ≤ I < N).
func parseShard(_ s: String) throws -> (index: Int, count: Int) {
    let parts = s.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else {
        throw ValidationError("--shard '\(s)' must be I/N with 0 ≤ I < N, e.g. 0/4 (I counts from 0, like SLURM_ARRAY_TASK_ID=0… and JOB_COMPLETION_INDEX)")
    }
    return (i, n)
}

/// Writes `data` under a temporary name beside `url`, then renames it.
func writeAtomically(_ data: Data, to url: URL) throws {
    if let reason = OutputDestination.refusal(at: url.path) { throw CLIError(message: "cannot write \(url.path): \(reason)") }
    let temp = TemporaryOutput.url(for: url)
    do {
        try data.write(to: temp)
        guard rename(temp.path, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    } catch {
        try? FileManager.default.removeItem(at: temp)
        throw error
    }
}

/// Prints a JSON object on one line (or pretty).
func printJSON(_ object: [String: Any], pretty: Bool = true) {
    var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
    if pretty { options.insert(.prettyPrinted) }
    if let data = try? JSONSerialization.data(withJSONObject: object, options: options) {
        print(String(decoding: data, as: UTF8.self))
    }
}

/// "30", "29.97".
func formatNumber(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(format: "%g", x)
}

/// The progress of a batch: on a terminal one line (rows done, failures, each job's row and
/// frames, the time left); with --json one object per event on stdout.
final class BatchProgressDisplay: Sendable {
    private struct State {
        var progress: BatchProgress
        var lastPrint = Date.distantPast
        var printed = false
    }

    private let style: ProgressLine.Style
    private let total: Int
    private let started = Date()
    private let state: Mutex<State>

    init(style: ProgressLine.Style, total: Int) {
        self.style = style == .terminal && isatty(STDERR_FILENO) == 0 ? .quiet : style
        self.total = total
        state = Mutex(State(progress: BatchProgress(total: total)))
    }

    func handle(_ event: BatchEvent) {
        state.withCheckedLock { state in
            state.progress.handle(event)
            switch event {
            case .started(let row, let output, let job):
                if style == .json { emit(["event": "start", "row": row, "output": output, "job": job]) }
            case .progress(let row, let job, let p):
                if style == .json && (p.framesDone == p.frameCount || p.framesDone % 30 == 0) {
                    emit(["event": "progress", "row": row, "job": job, "frames": p.framesDone, "total": p.frameCount])
                }
            case .finished(let item, _, _):
                if style == .json {
                    var d: [String: Any] = ["event": "row", "row": item.row, "status": item.status.rawValue]
                    d["output"] = item.output ?? NSNull()
                    d["error"] = item.error ?? NSNull()
                    emit(d)
                }
            }
            if style == .terminal { draw(&state) }
        }
    }

    private func emit(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        InterruptSignals.shared.writeToStandardOutput(String(decoding: data, as: UTF8.self) + "\n")
    }

    private func draw(_ state: inout State) {
        let now = Date()
        guard now.timeIntervalSince(state.lastPrint) > 0.2 || state.progress.done == total else { return }
        state.lastPrint = now
        let line = "\r  " + state.progress.line(elapsed: now.timeIntervalSince(started)) + "   "
        FileHandle.standardError.write(Data(line.utf8))
        state.printed = true
    }

    func finish() {
        state.withCheckedLock { state in
            if state.printed { FileHandle.standardError.write(Data("\n".utf8)) }
            state.printed = false
        }
    }
}
