// The permissions a finished output gets. Outputs are written under private temporary names and
// renamed when complete; then they get the mode a newly created file would have (0666 or 0777
// less the process's umask). The umask is read from /proc/self/status: calling umask(2) to read
// it would change it for a moment, under every other thread of the process that creates files.
import Foundation

public enum FilePermissions {
    /// The process's file mode creation mask (0o022 where /proc does not say).
    public static var umask: mode_t {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let value = mode_t(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) else { return 0o022 }
        return value
    }

    /// Gives `path` the mode a new file (or folder) would have.
    public static func applyDefaultMode(to path: String, isFolder: Bool = false) {
        chmod(path, (isFolder ? 0o777 : 0o666) & ~umask)
    }
}
