// One batch at a time into an output folder: two batches started into one --out would render the
// same rows twice, each replacing the other's files. A batch holds an advisory lock (flock(2)) on
// a file in the folder for as long as it runs — `.strata-batch.lock`, or `.strata-batch-I-of-N.lock`
// for shard I of N, so that the shards of one batch share a folder — and writes who it is into it.
// A second batch finds the lock held and stops before rendering, naming the holder. The lock goes
// with its process, whatever ends it; the file is removed by the batch that made it, and a file
// left behind by a killed batch is simply locked again.
import Foundation
import StrataCore
#if canImport(Glibc)
import Glibc
#endif

/// A held lock on a batch's output folder; `release()` (or the process's end) lets it go.
public final class BatchLock {
    /// The lock file.
    public let url: URL
    private var descriptor: Int32

    /// The lock file's name for a batch (shard I of N, or the whole table).
    public static func fileName(shard: (index: Int, count: Int)?) -> String {
        shard.map { ".strata-batch-\($0.index)-of-\($0.count).lock" } ?? ".strata-batch.lock"
    }

    /// Takes the lock on `folder` (which must exist) or throws naming the batch that holds it.
    public init(folder: URL, shard: (index: Int, count: Int)?, description: String) throws {
        url = folder.appendingPathComponent(Self.fileName(shard: shard))
        while true {
            let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard fd >= 0 else {
                throw BatchLockError(message: "cannot lock the output folder \(folder.path): \(url.lastPathComponent) cannot be opened "
                                     + "(\(String(cString: strerror(errno))))")
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK else {
                    let reason = String(cString: strerror(errno))
                    close(fd)
                    throw BatchLockError(message: "cannot lock the output folder \(folder.path): \(reason) (the file system may not "
                                         + "support locks; one batch at a time into a folder is then up to you)")
                }
                let holder = Self.read(fd).trimmingCharacters(in: .whitespacesAndNewlines)
                close(fd)
                throw BatchLockError(message: "another batch is writing into \(folder.path)"
                    + (holder.isEmpty ? "" : " (\(holder))")
                    + ": wait for it to finish, or give this one another --out (the shards of one batch, --shard I/N, may share a folder)")
            }
            // The file may have been removed by the batch that held it between our open and our
            // lock: then we hold a lock on a file no one else will find. Open it again.
            var opened = stat(), named = stat()
            if fstat(fd, &opened) == 0, lstat(url.path, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev {
                descriptor = fd
                break
            }
            close(fd)
        }
        let text = "\(description), pid \(getpid()) on \(TemporaryOutput.host), started \(ISO8601DateFormatter().string(from: Date()))\n"
        _ = ftruncate(descriptor, 0)
        _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    /// Removes the lock file and lets the lock go.
    public func release() {
        guard descriptor >= 0 else { return }
        unlink(url.path)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }

    private static func read(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        return n > 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : ""
    }
}

/// A batch's output folder is locked by another batch (or cannot be locked).
public struct BatchLockError: Error, CustomStringConvertible {
    /// What holds the lock (or why it cannot be taken), and what to do.
    public let message: String
    public var description: String { message }
}
