// A process the studio starts (a `swift build`, a script's own `preview`) in a process group of
// its own, so that stopping it stops everything it started too (the compiler's jobs, an ffmpeg
// of a render): SIGTERM to the group, then SIGKILL after a grace period. Its output is read
// line by line on threads of its own; its standard input is a pipe held open by this process,
// so that a supervised studio sees it close when its supervisor dies, however it dies.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// @unchecked: `status`, `terminated` and `onExit` are read and written only under `lock`; the
// rest never changes after `init`.
final class ChildProcess: @unchecked Sendable {
    /// The process's id, which is also its process group's.
    let pid: pid_t
    private let stdinWriter: Int32
    private let lock = StudioLock()
    private var status: Int32?
    private var terminated = false
    private let exited = DispatchSemaphore(value: 0)
    private let readersDone = DispatchGroup()
    private var onExit: [@Sendable (Int32) -> Void] = []

    /// Starts `executable` with `arguments`. Each line it writes goes to `output` (`true`: from
    /// standard error). `mergeError`: standard error goes to the same pipe as standard output
    /// (its lines are reported as standard output).
    init(executable: String, arguments: [String], environment: [String: String], directory: URL?,
         mergeError: Bool = false, output: @escaping @Sendable (String, Bool) -> Void) throws {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], inPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0, pipe(&inPipe) == 0 else {
            throw StudioError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        // Not inherited by other processes started later (a next build keeping this one's stdin open).
        for fd in outPipe + errPipe + inPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, mergeError ? outPipe[1] : errPipe[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own (its id is the child's); the signals this process ignores (the CLI
        // ignores SIGINT, SIGTERM, SIGHUP and SIGPIPE to watch them) back to their defaults,
        // and none blocked.
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t(), none = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, s) }
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        // In `directory`: a shell changes to it, then becomes the program (the same process).
        let program = directory == nil ? executable : "/bin/sh"
        let all = directory.map { ["/bin/sh", "-c", "cd -- \"$1\" || exit 127; shift; exec \"$@\"", "sh", $0.path, executable] + arguments }
            ?? [executable] + arguments
        let argv = all.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var child: pid_t = 0
        let rc = posix_spawnp(&child, program, &actions, &attributes, argv, envp)
        for fd in [inPipe[0], outPipe[1], errPipe[1]] { Glibc.close(fd) }
        guard rc == 0 else {
            for fd in [inPipe[1], outPipe[0], errPipe[0]] { Glibc.close(fd) }
            throw StudioError("cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        pid = child
        let childID = child
        stdinWriter = inPipe[1]
        Self.readLines(outPipe[0], group: readersDone) { output($0, false) }
        if mergeError { Glibc.close(errPipe[0]) } else { Self.readLines(errPipe[0], group: readersDone) { output($0, true) } }
        let waiter = Thread { [self] in
            var raw: Int32 = 0
            while waitpid(childID, &raw, 0) < 0 && errno == EINTR {}
            // The exit status, or 128 + the signal that ended it.
            let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            let handlers = lock.locked { () -> [@Sendable (Int32) -> Void] in
                status = code
                return onExit
            }
            exited.signal()
            for h in handlers { h(code) }
        }
        waiter.name = "studio-child-wait"
        waiter.start()
    }

    deinit { Glibc.close(stdinWriter) }

    /// The exit status (128 + signal when a signal ended it); nil while it runs.
    var exitStatus: Int32? { lock.locked { status } }

    /// Calls `handler` with the exit status when the process ends (at once if it has ended).
    func whenExited(_ handler: @escaping @Sendable (Int32) -> Void) {
        let done = lock.locked { () -> Int32? in
            if status == nil { onExit.append(handler) }
            return status
        }
        if let done { handler(done) }
    }

    /// Waits for the process to end; its status, or nil after `timeout` seconds.
    @discardableResult
    func wait(timeout: Double? = nil) -> Int32? {
        if let timeout {
            guard exited.wait(timeout: .now() + timeout) == .success else { return nil }
        } else {
            exited.wait()
        }
        exited.signal()
        return exitStatus
    }

    /// Waits until both output pipes have been read to their end (after `wait`).
    func waitForOutput(timeout: Double) { _ = readersDone.wait(timeout: .now() + timeout) }

    /// Stops the whole group: SIGTERM, then SIGKILL after `grace` seconds; returns when the
    /// process has ended. Whatever of the group outlived it is killed too.
    func terminate(grace: Double = 3) {
        let first = lock.locked { () -> Bool in
            defer { terminated = true }
            return !terminated
        }
        guard first else {
            // Another thread is stopping it: wait as long as that may take.
            wait(timeout: grace + 5)
            return
        }
        if exitStatus == nil {
            kill(-pid, SIGTERM)
            if wait(timeout: grace) == nil {
                kill(-pid, SIGKILL)
                wait()
            }
        }
        // Members of the group that outlived its leader (none when it stopped cleanly).
        kill(-pid, SIGKILL)
    }

    private static func readLines(_ fd: Int32, group: DispatchGroup, _ line: @escaping @Sendable (String) -> Void) {
        group.enter()
        let thread = Thread {
            var pending = [UInt8]()
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                pending.append(contentsOf: chunk[0..<n])
                while let newline = pending.firstIndex(of: 10) {
                    line(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            if !pending.isEmpty { line(String(decoding: pending, as: UTF8.self)) }
            Glibc.close(fd)
            group.leave()
        }
        thread.name = "studio-child-output"
        thread.start()
    }
}
