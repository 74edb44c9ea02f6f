// Inputs are read only from regular files. Opening a named pipe (FIFO) for reading waits for a
// writer, forever if none comes; a character device such as /dev/zero or /dev/urandom never ends;
// a socket cannot be opened at all. A template's asset, a data file or a media file given by an
// untrusted author that is one of these hung `strata render`, `probe` and `concat` in `open`, and
// a folder "could not be read" in words that sent the user looking for a permission problem.
// They are refused from their file status, before anything opens them, saying what they are.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks made before an input file is opened: pipes, devices and sockets are refused from their
/// file status (they would block or never end), so a bad path fails at once with a message saying
/// what it is.
public enum InputFile {
    /// Why `path` must not be opened for reading, or nil when it may: a regular file, a folder
    /// (the caller says what it wanted instead), or nothing there (the caller's "no such file").
    /// Symbolic links are followed: a link to a pipe is refused too.
    public static func refusal(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        default: return special(info.st_mode)
        }
    }

    /// Why `path` cannot be read as a file, or nil when it is a readable regular file (symbolic
    /// links followed): "no such file", "it is a folder, not a file", "permission denied", or a
    /// pipe's, device's or socket's `refusal`.
    public static func problem(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            switch errno {
            case ENOENT, ENOTDIR: return "no such file"
            case EACCES: return "permission denied"
            default: return String(cString: strerror(errno))
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return access(path, R_OK) == 0 ? nil : "permission denied"
        case S_IFDIR: return "it is a folder, not a file"
        default: return special(info.st_mode)
        }
    }

    private static func special(_ mode: mode_t) -> String {
        "it is \(kind(of: mode)), not a regular file; Strata reads only regular files (a pipe or device may never end, or wait forever for a writer)"
    }

    /// What a file of `mode` is, in words: "a named pipe (FIFO)", "a character device", …
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "neither a file nor a folder"
        }
    }
}
