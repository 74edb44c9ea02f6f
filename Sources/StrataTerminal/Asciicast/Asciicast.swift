// asciinema's recording format, read: a header line (a JSON object: the terminal's size, an idle
// time limit, a theme) and then one JSON array per event — [time, code, data] with code "o"
// (output), "i" (input), "r" (resize, "COLSxROWS"), "m" (marker) or "x" (exit status). Version 2
// gives each event's time since the start; version 3 gives the time since the previous event,
// the size under "term", and allows comment lines starting with "#". Errors name the file and
// line.
import Foundation

/// An asciinema recording (asciicast v2 or v3).
public struct Asciicast: Sendable {
    /// One recorded event.
    public struct Event: Sendable, Hashable {
        /// Seconds since the start of the recording (v3's intervals summed).
        public var time: Double
        /// "o", "i", "r", "m", "x" (others are kept and ignored).
        public var code: String
        /// The event's data (output text, "COLSxROWS", a marker's label…).
        public var data: String
    }

    /// 2 or 3.
    public var version: Int
    /// Columns of the recorded terminal.
    public var columns: Int
    /// Rows of the recorded terminal.
    public var rows: Int
    /// The longest pause kept when played back (nil: every pause as recorded).
    public var idleTimeLimit: Double?
    /// The recorded terminal's theme, when the header has one.
    public var theme: TerminalTheme?
    /// The events in time order.
    public var events: [Event]

    /// Reads a recording from `url`.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw TerminalInputError(file: url.path, line: nil, message: "cannot read the recording (\(error.localizedDescription))")
        }
        try self.init(text: String(decoding: data, as: UTF8.self), file: url.path)
    }

    /// Parses a recording's text; `file` names it in errors.
    public init(text: String, file: String = "<recording>") throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().lazy
            .filter { !$0.element.trimmingCharacters(in: .whitespaces).isEmpty }.makeIterator()
        func fail(_ line: Int, _ message: String) -> TerminalInputError { TerminalInputError(file: file, line: line, message: message) }
        guard let (headerIndex, headerLine) = lines.next() else { throw fail(1, "the recording is empty (expected a header line)") }
        guard let header = try? JSONSerialization.jsonObject(with: Data(headerLine.utf8)) as? [String: Any] else {
            throw fail(headerIndex + 1, "the header is not a JSON object")
        }
        guard let v = (header["version"] as? NSNumber)?.intValue, v == 2 || v == 3 else {
            throw fail(headerIndex + 1, "unsupported asciicast version \(header["version"].map { "\($0)" } ?? "(none)") (2 and 3 are read)")
        }
        version = v
        let term = v == 3 ? header["term"] as? [String: Any] ?? [:] : header
        let (wKey, hKey) = v == 3 ? ("cols", "rows") : ("width", "height")
        guard let w = (term[wKey] as? NSNumber)?.intValue, let h = (term[hKey] as? NSNumber)?.intValue, (1...1000).contains(w), (1...1000).contains(h) else {
            throw fail(headerIndex + 1, "the header needs the terminal's size (\(v == 3 ? "term.cols and term.rows" : "width and height"), 1…1000)")
        }
        columns = w; rows = h
        idleTimeLimit = (header["idle_time_limit"] as? NSNumber).map(\.doubleValue).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        theme = (term["theme"] as? [String: Any]).flatMap(Self.theme)
        var events: [Event] = []
        var clock = 0.0
        while let (index, line) = lines.next() {
            if v == 3, line.hasPrefix("#") { continue }
            guard let array = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], array.count >= 3,
                  let t = (array[0] as? NSNumber)?.doubleValue, t.isFinite, t >= 0,
                  let code = array[1] as? String, let data = array[2] as? String else {
                throw fail(index + 1, "expected an event [time, code, data]")
            }
            if v == 3 { clock += t } else {
                guard t >= clock - 1e-9 else { throw fail(index + 1, "event time \(t) is before the previous event's (\(clock))") }
                clock = t
            }
            events.append(Event(time: clock, code: code, data: data))
        }
        self.events = events
    }

    /// asciinema's theme: {"fg": "#…", "bg": "#…", "palette": "#…:#…:…" (8 or 16 colours)}.
    static func theme(_ json: [String: Any]) -> TerminalTheme? {
        guard let fg = (json["fg"] as? String).flatMap(TerminalRGB.init(hex:)),
              let bg = (json["bg"] as? String).flatMap(TerminalRGB.init(hex:)),
              let palette = (json["palette"] as? String)?.split(separator: ":").compactMap({ TerminalRGB(hex: String($0)) }),
              palette.count == 8 || palette.count == 16 else { return nil }
        return TerminalTheme(name: "Recording", background: bg, foreground: fg, ansi: palette.count == 16 ? palette : palette + palette)
    }

    // MARK: Markers

    /// The recording's markers ("m" events): their times (as recorded) and labels, in order.
    public var markers: [(time: Double, label: String)] {
        events.filter { $0.code == "m" }.map { ($0.time, $0.data) }
    }

    /// A point of the recording named on a command line: seconds as recorded ("2.5"), or the
    /// label of a marker. Throws a message (naming `file` and the `option`) listing the markers
    /// when it is neither.
    public func time(of point: String, option: String, file: String) throws -> Double {
        if let t = Double(point.trimmingCharacters(in: .whitespaces)) {
            guard t.isFinite, t >= 0 else { throw TerminalInputError(file: file, line: nil, message: "\(option) \(point) is not a time in the recording (seconds ≥ 0)") }
            return t
        }
        if let m = markers.first(where: { $0.label == point }) { return m.time }
        let names = markers.map { "\"\($0.label)\" (\(Self.seconds($0.time)) s)" }
        throw TerminalInputError(file: file, line: nil, message: "\(option): no marker \"\(point)\" in the recording (" +
            (names.isEmpty ? "it has no markers; give seconds" : "its markers: " + names.joined(separator: ", ")) + ")")
    }

    /// Seconds as messages write them ("2.5", "8").
    public static func seconds(_ t: Double) -> String {
        let s = String(format: "%.3f", t)
        return s.replacingOccurrences(of: "0+$", with: "", options: .regularExpression).replacingOccurrences(of: "\\.$", with: "", options: .regularExpression)
    }

    // MARK: Playback

    /// The screens the recording shows, played at `speed` with pauses cut to `idleTimeLimit`
    /// (nil: the recording's own limit, if any), each change placed on the first frame at or
    /// after its time (at `frameRate`; later changes in the same frame replace earlier ones).
    /// `from` and `to` (times as recorded) cut the recording: the video starts with the screen
    /// as it is at `from` (what came before is played into the emulator, not shown) and ends at
    /// `to`. Returns the timeline and the video time of the last event (of `to`, when given).
    public func timeline(speed: Double = 1, idleTimeLimit: Double? = nil, frameRate: Double,
                         from: Double? = nil, to: Double? = nil) -> (timeline: TerminalTimeline, end: Double) {
        let limit = idleTimeLimit ?? self.idleTimeLimit
        let start = max(0, from ?? 0)
        let screen = TerminalScreen(columns: columns, rows: rows)
        var timeline = TerminalTimeline(columns: columns, rows: rows)
        var previous = start, clock = 0.0
        var slot = 0.0
        var pending = false
        var started = false
        func play(_ event: Event) {
            switch event.code {
            case "o":
                screen.feed(event.data); pending = true
            case "r":
                let parts = event.data.split(separator: "x").compactMap { Int($0) }
                if parts.count == 2 { screen.resize(columns: parts[0], rows: parts[1]); pending = true }
            default: break
            }
        }
        /// Video time of a recorded gap.
        func played(_ gap: Double) -> Double { (limit.map { min(gap, $0) } ?? gap) / max(speed, 1e-6) }
        for event in events {
            if let to, event.time > to { break }
            // Before the cut: into the emulator only. Events at `from` itself are shown.
            if event.time < start { play(event); continue }
            if !started {
                // The grid the screen has at the cut (a resize before it).
                timeline = TerminalTimeline(columns: screen.columns, rows: screen.rows)
                timeline.append(screen.state, at: 0)
                started = true; pending = false
            }
            clock += played(event.time - previous)
            previous = event.time
            let eventSlot = (clock * frameRate - 1e-9).rounded(.up) / frameRate
            if pending, eventSlot != slot { timeline.append(screen.state, at: slot); pending = false }
            slot = eventSlot
            play(event)
        }
        if !started {
            timeline = TerminalTimeline(columns: screen.columns, rows: screen.rows)
            timeline.append(screen.state, at: 0)
        }
        if pending { timeline.append(screen.state, at: slot) }
        if let to, to > previous { clock += played(to - previous) }
        return (timeline, clock)
    }
}
