// examples/tapes/colors.tape run for real (bash, `ls --color=always` on a folder it makes, printf
// with SGR colours) and rendered at three times of the tape's clock, at half size, side by side,
// against a reference strip reviewed by eye when recorded (tolerance 2 per channel, no pixel
// over it: the tape's clock places every change, so the same machine draws the same bytes).
// Beside the picture, the screen's text at the end. The other example tapes (git-graph, less)
// depend on the installed git's and less's versions and are reviewed by eye only.
import Foundation
import Strata
import StrataTerminal
import StrataTestSupport
import XCTest

final class TapeReferenceTests: XCTestCase {
    static let tapes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/tapes")

    func testColoursTape() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { throw XCTSkip("no bash") }
        let tape = try TapeParser.parse(contentsOf: Self.tapes.appendingPathComponent("colors.tape"))
        let movie = try TapeRunner(tape: tape).run().movie
        XCTAssertEqual(movie.finalText.split(separator: "\n").prefix(3), [
            "> ls --color=always",
            "LINK  Package.swift  README.md  Sources  Tests  build.sh  docs",
            "> printf '\\e[31mred \\e[32mgreen \\e[1;33mbold yellow\\e[0m \\e[4;36munderlined\\",
        ])
        let scene = movie.makeScene()
        scene.contentsScale = 0.5
        // The first command half typed, its output, the last frame (printf's colours).
        let times = [0.5, movie.duration * 0.4, movie.duration - 1 / movie.frameRate]
        let strip = ContactSheet.make(try times.map { try scene.renderFrame(at: $0) }, columns: 3, reduction: 1, spacing: 2)
        assertReferenceImage(strip, named: "colors-tape")
    }
}
