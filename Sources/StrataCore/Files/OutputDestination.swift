// Outputs are written under a temporary name and renamed into place when complete, so a failed
// write never leaves a half-written file under the final name. The rename replaces whatever
// the name held — also a device, pipe or socket: `-o /dev/null` run as root would swap the
// device for the output. Such destinations are refused before anything is written.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks made before an output is renamed into place: a device, pipe or socket at the destination
/// is refused, since the rename would replace it.
public enum OutputDestination {
    /// Why an output must not be renamed into place at `path`, or nil when it may: nothing is
    /// there, or a file or folder (the caller decides which it replaces). Symbolic links are
    /// followed: a link to a device is refused too.
    public static func refusal(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }  // nothing there, or a dangling link
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: return nil
        default:
            return "it is \(InputFile.kind(of: info.st_mode)), and the output is written under a temporary name and renamed "
                + "into place when done, which would replace it"
        }
    }

    /// Whether `path` holds a regular file (symbolic links followed).
    public static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
