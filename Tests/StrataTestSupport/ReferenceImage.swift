// Reference-image assertions. References live in __Snapshots__/<TestFile>/<name>.png beside the
// test file. A missing reference is recorded and the test fails; STRATA_RECORD=1 re-records.
// On a mismatch, failure.png, difference.png and summary.json go to .artifacts/<TestFile>/<name>/.
import Foundation
import XCTest
import StrataCore
import StrataRender

public func assertReferenceImage(_ image: Bitmap, named name: String, tolerance: Int = 2, maxPixelsOver: Int = 0,
                          file: StaticString = #filePath, line: UInt = #line) {
    let testFile = URL(fileURLWithPath: "\(file)")
    let folder = testFile.deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__")
        .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
    let refURL = folder.appendingPathComponent("\(name).png")
    let record = ProcessInfo.processInfo.environment["STRATA_RECORD"] == "1"
    if record || !FileManager.default.fileExists(atPath: refURL.path) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try image.writePNG(to: refURL)
        } catch {
            XCTFail("could not record reference \(refURL.path): \(error)", file: file, line: line)
            return
        }
        XCTFail("recorded reference image \(refURL.path); review it and run again", file: file, line: line)
        return
    }
    let expected: Bitmap
    do { expected = try Bitmap(contentsOfPNG: refURL) } catch {
        XCTFail("cannot read reference \(refURL.path): \(error)", file: file, line: line)
        return
    }
    guard let cmp = ImageComparison(actual: image, expected: expected, tolerance: tolerance) else {
        XCTFail("size \(image.width)×\(image.height) differs from reference \(expected.width)×\(expected.height) (\(name))",
                file: file, line: line)
        return
    }
    if cmp.pixelsOverTolerance > maxPixelsOver {
        let root = URL(fileURLWithPath: "\(file)").deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let artifacts = root.appendingPathComponent(".artifacts")
            .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent).appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        try? image.writePNG(to: artifacts.appendingPathComponent("failure.png"))
        try? cmp.difference.writePNG(to: artifacts.appendingPathComponent("difference.png"))
        try? cmp.json.write(to: artifacts.appendingPathComponent("summary.json"), atomically: true, encoding: .utf8)
        XCTFail("\(name): \(cmp.pixelsOverTolerance) pixels differ by more than \(tolerance) (max \(cmp.maxChannelDifference)); artifacts in \(artifacts.path)",
                file: file, line: line)
    }
}
