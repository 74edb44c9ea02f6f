// A program running in a pseudo-terminal: started in a session of its own (forkpty), read and
// written through the master side, and stopped with every process of its session's process
// groups that still hold the terminal.
import CPseudoTerminal
import Foundation

/// A process in a pseudo-terminal.
final class PseudoTerminal {
    let pid: pid_t
    private(set) var master: Int32
    private(set) var exited = false

    /// Starts `arguments[0]` (a path) with `arguments` and `environment` in a terminal of
    /// `columns` × `rows`.
    init(arguments: [String], environment: [String: String], columns: Int, rows: Int) throws {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        var child: pid_t = 0
        let fd = strata_pty_spawn(arguments[0], &argv, &envp, nil, UInt16(clamping: rows), UInt16(clamping: columns), &child)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        master = fd
        pid = child
    }

    deinit { stop() }

    /// Writes bytes to the program (as typed), waiting while the terminal's buffer is full.
    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count, master >= 0 {
            let n = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n; continue }
            if n < 0, errno == EAGAIN || errno == EINTR { var p = pollfd(fd: master, events: Int16(POLLOUT), revents: 0); _ = poll(&p, 1, 100); continue }
            return
        }
    }

    /// Writes what the terminal takes now, without waiting; returns how many bytes it took (0:
    /// its input buffer is full, or it is closed).
    func writeSome(_ bytes: ArraySlice<UInt8>) -> Int {
        guard master >= 0, !bytes.isEmpty else { return 0 }
        while true {
            let n = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress!, $0.count) }
            if n >= 0 { return n }
            if errno == EINTR { continue }
            return 0
        }
    }

    /// Waits up to `timeout` seconds for output and returns what is there (empty: nothing came
    /// in time, or the program has closed the terminal — then `exited` is set).
    func read(timeout: Double) -> [UInt8] {
        guard master >= 0, !exited else { return [] }
        var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let r = poll(&p, 1, Int32(max(0, min(timeout, 3600)) * 1000))
        guard r > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress!, $0.count) }
        if n > 0 { return Array(buffer[0..<n]) }
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR) { exited = true }
        return []
    }

    /// Kills the terminal's foreground process group, the program's own group, and closes the
    /// terminal; reaps the program.
    func stop() {
        guard master >= 0 else { return }
        let foreground = strata_pty_foreground_group(master)
        if foreground > 0 { kill(-foreground, SIGKILL) }
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        close(master)
        master = -1
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) != 0 { break }
            usleep(10_000)
        }
    }
}
