// What both kinds of studio share besides the HTTP server: the page's server-sent events (each
// page greeted, then told of reloads, builds and errors) and the watcher that looks for changed
// files. `Studio` (a scene) and `StudioSupervisor` (a Swift package) each own one of both.
import Foundation
import StrataCore
import Synchronization

/// The pages listening for the studio's events (`GET /events`, `text/event-stream`).
final class StudioEventStream: Sendable {
    private struct State {
        var subscribers: [ObjectIdentifier: HTTPConnection] = [:]
        var closed = false
    }
    private let state = Mutex(State())

    /// One event in the stream's wire form: `event: NAME`, `data:` the object as JSON.
    static func event(_ name: String, _ object: [String: Any]) -> Data {
        let json = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Data("event: \(name)\ndata: ".utf8) + json + Data("\n\n".utf8)
    }

    /// The response of `GET /events`: the connection is greeted with a `hello` event of the
    /// fields `hello` gives when it connects, then hears every `broadcast` until the page goes or
    /// the stream is closed; a comment every 15 s keeps proxies from closing it.
    func response(hello: @escaping @Sendable () -> [String: Any]) -> HTTPResponse {
        var r = HTTPResponse(status: 200, contentType: "text/event-stream", body: Data())
        r.stream = { [self] connection in
            state.withCheckedLock { $0.subscribers[ObjectIdentifier(connection)] = connection }
            connection.write(Data("retry: 1000\n\n".utf8) + Self.event("hello", hello()))
            var ticks = 0
            while true {
                Thread.sleep(forTimeInterval: 0.2)
                ticks += 1
                if state.withCheckedLock({ $0.closed }) || connection.peerClosed { break }
                if ticks % 75 == 0, !connection.write(Data(": ping\n\n".utf8)) { break }
            }
            state.withCheckedLock { _ = $0.subscribers.removeValue(forKey: ObjectIdentifier(connection)) }
        }
        return r
    }

    /// Sends an event to every page listening.
    func broadcast(_ name: String, _ object: [String: Any]) {
        let data = Self.event(name, object)
        let list = state.withCheckedLock { Array($0.subscribers.values) }
        for c in list { c.write(data) }
    }

    /// Ends every stream (within 0.2 s) and any that starts later.
    func close() { state.withCheckedLock { $0.closed = true } }
}

/// Looks at a list of files every `interval` on a thread of its own and calls `changed` once a
/// change has settled (an editor's save, a temporary file then a rename, is one change).
final class StudioFileWatcher: Sendable {
    /// How the watcher goes on after a change.
    enum AfterChange {
        /// It compares with the files as they are after `changed` returns (their list may change
        /// with it, as a reloaded target's does).
        case lookAgain
        /// It compares with the files as they were when `changed` was called: a change made
        /// while `changed` runs (a build) is seen at the next look and calls it again.
        case keepWhatWasSeen
    }

    private let interval: TimeInterval
    private let afterChange: AfterChange
    private let files: @Sendable () -> [URL]
    private let changed: @Sendable () -> Void
    /// Whether `stop` was asked for, and whether `start` started the thread (`stop` then waits for it).
    private let state = Mutex((stopping: false, started: false))
    private let done = DispatchSemaphore(value: 0)

    init(interval: TimeInterval, afterChange: AfterChange, files: @escaping @Sendable () -> [URL], changed: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.afterChange = afterChange
        self.files = files
        self.changed = changed
    }

    /// Starts looking (the files as they are now are the first state).
    func start() {
        let thread = Thread { [self] in watch() }
        thread.name = "studio-watch"
        state.withCheckedLock { $0.started = true }
        thread.start()
    }

    /// Stops looking; returns once the thread has ended (a `changed` under way finishes first).
    func stop() {
        if state.withCheckedLock({ s -> Bool in s.stopping = true; return s.started }) { done.wait() }
    }

    private func watch() {
        var last = signatures()
        while true {
            Thread.sleep(forTimeInterval: interval)
            if state.withCheckedLock({ $0.stopping }) { break }
            var now = signatures()
            guard now != last else { continue }
            for _ in 0..<40 {
                Thread.sleep(forTimeInterval: min(0.05, interval))
                let again = signatures()
                if again == now { break }
                now = again
            }
            if afterChange == .keepWhatWasSeen { last = now }
            changed()
            if afterChange == .lookAgain { last = signatures() }
        }
        done.signal()
    }

    /// Each file's modification time, size and inode ("missing" for a file that is not there).
    private func signatures() -> [String: String] {
        var result: [String: String] = [:]
        for url in files() {
            var st = stat()
            result[url.path] = stat(url.path, &st) == 0 ? "\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)|\(st.st_size)|\(st.st_ino)" : "missing"
        }
        return result
    }
}
