// A terminal whose screen changes over time, as data: screen states at increasing times, each
// shown from its time until the next one's. A `TerminalLayer` shows the state for the time it is
// presented at, so that a frame depends on its time alone (any frame, in any order, gives the
// same pixels). Builders (a recording, a tape) append states as the screen changes; a state
// equal to the one before it is not kept.

// @unchecked: a timeline is built on one thread (a recording played, a tape run) and only read
// after it is handed to a layer; the renderer's threads read it, nothing writes it then.
/// Screen states over time.
public final class TerminalTimeline: @unchecked Sendable {
    /// The times, in seconds, increasing.
    public private(set) var times: [Double] = []
    /// The screen from `times[i]` until `times[i + 1]`.
    public private(set) var states: [TerminalScreenState] = []

    /// A timeline with no states (a blank screen of `columns` × `rows` until the first).
    public init(columns: Int, rows: Int) {
        blank = TerminalScreenState(columns: columns, rows: rows)
    }

    /// A timeline of one state (a still terminal).
    public convenience init(state: TerminalScreenState) {
        self.init(columns: state.columns, rows: state.rows)
        append(state, at: 0)
    }

    private let blank: TerminalScreenState

    /// Shows `state` from `time` on. A time before the last one's is moved up to it (the later
    /// state replaces the earlier one at that time); a state equal to the last is dropped.
    public func append(_ state: TerminalScreenState, at time: Double) {
        let t = max(time, times.last ?? 0)
        if let last = times.last, t == last {
            states[states.count - 1] = state
            if states.count >= 2, states[states.count - 2] == state { states.removeLast(); times.removeLast() }
            return
        }
        if states.last == state { return }
        times.append(t); states.append(state)
    }

    /// The index of the state shown at `time` (nil before the first state).
    public func index(at time: Double) -> Int? {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] <= time { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : lo - 1
    }

    /// The screen shown at `time` (a blank screen before the first state).
    public func state(at time: Double) -> TerminalScreenState {
        index(at: time).map { states[$0] } ?? blank
    }

    /// When the state shown at `time` began (0 before the first state).
    public func startOfState(at time: Double) -> Double {
        index(at: time).map { times[$0] } ?? 0
    }

    /// The time of the last change.
    public var lastTime: Double { times.last ?? 0 }

    /// The last screen.
    public var finalState: TerminalScreenState { states.last ?? blank }

    /// Columns of the first state's grid.
    public var columns: Int { states.first?.columns ?? blank.columns }
    /// Rows of the first state's grid.
    public var rows: Int { states.first?.rows ?? blank.rows }
}
