// Inputs are read from regular files only. Opening a FIFO blocks until a writer comes (forever, in
// an unattended batch), a device can stream without end, and a folder "cannot be read" in words
// that send the user looking for a permission problem. Each reader asks first and says what the
// path really is.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum InputFile {
    /// Why `path` cannot be read as a file, or nil when it is a readable regular file (symbolic
    /// links followed): "no such file", "it is a folder, not a file", "it is a pipe (FIFO), not a
    /// file", …
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
        case S_IFIFO: return "it is a pipe (FIFO), not a file; Strata reads regular files only"
        case S_IFCHR, S_IFBLK: return "it is a device, not a file; Strata reads regular files only"
        case S_IFSOCK: return "it is a socket, not a file; Strata reads regular files only"
        default: return "it is not a regular file"
        }
    }
}
