// `strata batch`: renders a template once per row of a CSV or JSON Lines file, in parallel jobs,
// in shards across machines, resumable; each row that fails is reported and the others render.
import ArgumentParser
import Foundation
import Strata

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
    @Option(parsing: .unconditional, help: ArgumentHelp("Rows rendered at once (each with its share of the cores; default: one per core, as many as the memory holds).",
                                                     valueName: "n"))
    var jobs: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("Threads of each row's video encoder (default 1: the jobs are the parallelism; the same bytes whatever --jobs).",
                                                     valueName: "n"))
    var encoderThreads: Int = 1
    @Option(parsing: .unconditional, help: ArgumentHelp("The most frames each row's H.264 encoder looks ahead (x264 rc-lookahead; default 20, about 6.6 MB a frame at 1080p).",
                                                     valueName: "frames"))
    var lookahead: Int = 20
    @Option(help: ArgumentHelp("Render only this share of the rows: I/N with 0 ≤ I < N.", valueName: "I/N"))
    var shard: String?
    @Flag(help: "Skip rows whose output file already exists.")
    var resume = false
    @Option(help: ArgumentHelp("Write a JSON report of every row to this file.", valueName: "report.json"))
    var report: String?
    @OptionGroup var parameters: ParameterOptions
    @OptionGroup var format: SceneFormatOptions
    @OptionGroup var limitOptions: LimitOptions
    @OptionGroup var encoding: EncodingOptions
    @OptionGroup var progress: ProgressOptions
    @OptionGroup var timing: TimeoutOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("Stop a row after this many seconds: the row fails (exit status 1) and the others render.",
                               valueName: "seconds"))
    var rowTimeout: Double?

    func validate() throws {
        if let jobs, !(1...64).contains(jobs) { throw ValidationError("--jobs \(jobs) must be between 1 and 64") }
        guard (1...64).contains(encoderThreads) else { throw ValidationError("--encoder-threads \(encoderThreads) must be between 1 and 64") }
        guard (0...250).contains(lookahead) else { throw ValidationError("--lookahead \(lookahead) must be between 0 and 250 frames") }
        if let shard { _ = try parseShard(shard) }
        if let rowTimeout { try TimeoutOptions.checkSeconds(rowTimeout, option: "--row-timeout") }
    }

    func run() throws {
        let timeout = timing.start()
        defer { timeout?.finish() }
        let limits = try limitOptions.limits()
        let t: Template
        do { t = try Template(contentsOf: TemplateLibrary.locate(template)) } catch { throw CLIError(message: "\(error)") }
        // The export flags are checked against the kind of file --name makes, before any row renders.
        let ext = URL(fileURLWithPath: name).pathExtension
        let sample = URL(fileURLWithPath: out).appendingPathComponent(ext.isEmpty ? "row" : "row.\(ext)")
        let export = try encoding.exportOptions(for: sample, defaults: t.exportDefaults)
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
        options.encoderThreads = encoderThreads
        options.lookahead = lookahead
        options.shard = try shard.map(parseShard)
        options.resume = resume
        options.fixed = try parameters.assignments()
        options.allowAssets = parameters.allowedAssetFolders
        options.adjust = try format.adjustment()
        options.contentsScale = format.contentsScale
        options.limits = limits
        options.export = export
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
