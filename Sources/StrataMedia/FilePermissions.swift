// The permissions a finished output gets. Outputs are written under private temporary names and
// renamed when complete; then they get the mode a newly created file would have (0666 or 0777
// less the process's umask). The umask is read from /proc/self/status: calling umask(2) to read
// it would change it for a moment, under every other thread of the process that creates files.
// Where /proc does not say (a kernel before 4.7, /proc not mounted), `assumedUmask` is used.
import Foundation

/// The permissions finished outputs get: the mode a newly created file would have (0666, folders
/// 0777, less the process's umask, read from /proc/self/status without changing it).
public enum FilePermissions {
    /// The mask assumed where /proc does not give the process's own: 0o022, the usual default
    /// (outputs then get 0644, folders 0755, whatever the real mask is).
    public static let assumedUmask: mode_t = 0o022

    /// The process's file mode creation mask: `umaskFromProc`, or `assumedUmask` where /proc
    /// does not say.
    public static var umask: mode_t { umaskFromProc ?? assumedUmask }

    /// The process's file mode creation mask as /proc/self/status gives it (its `Umask:` line,
    /// Linux 4.7 and later), or nil where it does not.
    public static var umaskFromProc: mode_t? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }) else { return nil }
        return mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
    }

    /// Gives `path` the mode a new file (or folder) would have.
    public static func applyDefaultMode(to path: String, isFolder: Bool = false) {
        chmod(path, (isFolder ? 0o777 : 0o666) & ~umask)
    }
}
