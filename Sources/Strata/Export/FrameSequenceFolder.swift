// A folder of PNG frames as an export's destination. The export never deletes what it did not
// write: a folder that does not exist is made (rendered under a temporary name, then renamed
// into place); an existing folder takes the frames only when it is empty, or when it holds
// nothing but frames of an earlier render (`frame_NNNNN.png`) and the caller said to overwrite
// them. Then each new frame is renamed into the folder, replacing the file of the same name and
// nothing else: frames of the earlier render outside this export's range stay (chunks rendered
// with frame ranges can share a folder) and a warning names them.
import Foundation
import StrataCore

enum FrameSequenceFolder {
    /// The name of frame `index`: `frame_00042.png`.
    static func name(ofFrame index: Int) -> String {
        let digits = String(index)
        return "frame_" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".png"
    }

    /// The frame number of a file named as `name(ofFrame:)` names one; nil for any other name.
    static func frameIndex(ofName name: String) -> Int? {
        guard name.hasPrefix("frame_"), name.hasSuffix(".png") else { return nil }
        let digits = name.dropFirst(6).dropLast(4)
        guard digits.count >= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(digits),
              Self.name(ofFrame: index) == name else { return nil }
        return index
    }

    /// What an existing folder holds, as far as an export into it is concerned.
    enum Contents: Equatable {
        case empty
        /// Only frames of an earlier render, by number.
        case frames([Int])
        /// Something else as well: a few of those names (sorted) and how many there are.
        case foreign(examples: [String], count: Int)
    }

    static func contents(of folder: URL) throws -> Contents {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
            throw ExportError.notWritable(path: folder.path, reason: "the folder cannot be read (\(error.localizedDescription))")
        }
        if names.isEmpty { return .empty }
        var frames: [Int] = [], others: [String] = []
        for name in names {
            var isDir: ObjCBool = false
            let path = folder.appendingPathComponent(name).path
            // A frame is a regular file (or a link to one); a folder named like a frame is not.
            if let index = frameIndex(ofName: name), FileManager.default.fileExists(atPath: path, isDirectory: &isDir),
               !isDir.boolValue, OutputDestination.isFile(path) {
                frames.append(index)
            } else {
                others.append(name)
            }
        }
        if others.isEmpty { return .frames(frames.sorted()) }
        return .foreign(examples: Array(others.sorted().prefix(3)), count: others.count)
    }

    /// Refuses an existing folder that this export must not write into (see the file's header).
    static func checkWritable(_ folder: URL, overwrite: Bool) throws {
        switch try contents(of: folder) {
        case .empty:
            return
        case .frames(let frames):
            guard overwrite else {
                throw ExportError.notWritable(path: folder.path, reason: "the folder holds \(frames.count) PNG frame\(frames.count == 1 ? "" : "s") "
                    + "of an earlier render (\(describe(frames))); overwrite them with --overwrite (ExportOptions.overwrite), "
                    + "or name an empty or new folder")
            }
        case .foreign(let examples, let count):
            let listed = examples.map { "'\($0)'" }.joined(separator: ", ") + (count > examples.count ? " and \(count - examples.count) more" : "")
            throw ExportError.notWritable(path: folder.path, reason: "the folder holds files that are not PNG frames of Strata's (\(listed)); "
                + "PNG frames go into a new or empty folder, or one holding only frame_NNNNN.png files of an earlier render "
                + "(with --overwrite). Nothing was written or removed")
        }
    }

    /// Moves the frames rendered into `temporary` into the existing `folder`, each replacing the
    /// file of its name, then removes `temporary` (empty by then). Returns the frames of an
    /// earlier render left in `folder` outside `written`.
    static func moveFrames(from temporary: URL, into folder: URL, written: Range<Int>) throws -> [Int] {
        for index in written {
            let name = name(ofFrame: index)
            let destination = folder.appendingPathComponent(name).path
            // Checked again just before: a folder or a device put there meanwhile is not replaced.
            if let reason = OutputDestination.refusal(at: destination) {
                throw ExportError.notWritable(path: destination, reason: reason)
            }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: destination, isDirectory: &isDir), isDir.boolValue {
                throw ExportError.notWritable(path: destination, reason: "it is a folder")
            }
            guard rename(temporary.appendingPathComponent(name).path, destination) == 0 else {
                throw ExportError.notWritable(path: destination, reason: String(cString: strerror(errno)))
            }
            FilePermissions.applyDefaultMode(to: destination)
        }
        rmdir(temporary.path)
        guard case .frames(let all) = (try? contents(of: folder)) ?? .empty else { return [] }
        return all.filter { !written.contains($0) }
    }

    /// "frame_00000.png … frame_00119.png", or the one name.
    static func describe(_ frames: [Int]) -> String {
        guard let first = frames.first, let last = frames.last else { return "none" }
        return first == last ? name(ofFrame: first) : "\(name(ofFrame: first)) … \(name(ofFrame: last))"
    }
}
