// Every output (a video, a GIF, a PNG, a folder of frames, a report) is written under a temporary
// name beside its destination and renamed into place when complete. The name says who wrote it:
// `.NAME.partial-HOST-PID-N`. A process that dies before the rename (SIGKILL, a crash, a signal
// Strata does not catch) leaves that file behind; the next run into the same folder removes the
// partial files whose writer is gone — a process of this host that no longer exists. A partial
// file of a live process, or of another host sharing the folder (a Slurm array on a network
// file system, containers sharing a volume), is never touched.
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Temporary names for outputs being written (`.NAME.partial-HOST-PID-N` beside the destination)
/// and the removal of those left by processes of this host that no longer exist.
public enum TemporaryOutput {
    /// The marker between the output's name and its writer.
    static let marker = ".partial-"

    /// This host's name as it goes into a temporary name: letters, digits, dots and underscores
    /// only (at most 40), so that the name can be split again at its dashes.
    public static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        let name = gethostname(&buffer, buffer.count - 1) == 0
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let kept = name.unicodeScalars.map { scalar -> Character in
            let c = Character(scalar)
            return (c.isASCII && (c.isLetter || c.isNumber)) || c == "." ? c : "_"
        }
        let cleaned = String(kept.prefix(40))
        return cleaned.isEmpty ? "host" : cleaned
    }()

    /// A fresh temporary name beside `url`: `.NAME.partial-HOST-PID-N`.
    public static func url(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent)\(marker)\(host)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    }

    /// Who wrote the temporary file `name`: its host (nil for names from Strata versions that
    /// did not record it, taken as this host) and its process; nil when `name` is no temporary
    /// name of Strata's.
    public static func writer(ofName name: String) -> (host: String?, pid: Int32)? {
        guard name.hasPrefix("."), let r = name.range(of: marker, options: .backwards) else { return nil }
        let parts = name[r.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 2, UInt32(parts[parts.count - 1]) != nil,
              let pid = Int32(parts[parts.count - 2]), pid > 0 else { return nil }
        let host = parts.count > 2 ? parts[0..<(parts.count - 2)].joined(separator: "-") : nil
        if let host, host.isEmpty { return nil }
        return (host, pid)
    }

    /// Whether the writer of temporary file `name` is gone: a process of this host that no longer
    /// exists. A live process (or one whose existence cannot be told) and another host's keep
    /// their files.
    public static func isAbandoned(_ name: String) -> Bool {
        guard let writer = writer(ofName: name) else { return false }
        if let h = writer.host, h != host { return false }
        return kill(writer.pid, 0) != 0 && errno == ESRCH
    }

    /// The folders this process has swept already: writers that are gone stay gone, so one sweep
    /// a folder is enough (a batch of 10 000 rows into one folder reads it once, not per row).
    private static let swept = Mutex<Set<String>>([])

    /// Removes the temporary files in `folder` whose writer is gone (see `isAbandoned`), the
    /// first time this process writes into `folder`; returns their names.
    @discardableResult
    public static func removeAbandonedOnce(in folder: URL) -> [String] {
        let path = folder.standardizedFileURL.path
        guard swept.withCheckedLock({ $0.insert(path).inserted }) else { return [] }
        return removeAbandoned(in: folder)
    }

    /// Removes the temporary files in `folder` whose writer is gone (see `isAbandoned`); returns
    /// their names. Nothing else in the folder is touched, and a folder that cannot be read is
    /// left alone.
    @discardableResult
    public static func removeAbandoned(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var removed: [String] = []
        for name in names.sorted() where isAbandoned(name) {
            if (try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))) != nil { removed.append(name) }
        }
        return removed
    }
}
