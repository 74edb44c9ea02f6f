// What a new user meets first: `strata new`, finding installed templates from any folder, the
// message when none is found, "did you mean" for misspelt names, a list parameter's description,
// and a batch's progress line. (The whole path — install, new, build, render — is
// scripts/first-video-check.sh: it needs a release build of a new package.)
import Foundation
import XCTest
@testable import Strata
import StrataTerminal

final class NewUserTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try temporaryFolder() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    // MARK: strata new

    func testNewWritesAPackageDependingOnStrataByPathAndRefusesANonEmptyFolder() throws {
        let checkout = folder.appendingPathComponent("Strata-checkout")
        var r = try runProcess(strataExecutable, ["new", "my-video", "--strata", checkout.path], directory: folder)
        XCTAssertEqual(r.status, 1, "a --strata path without Package.swift is refused")
        XCTAssertTrue(r.stderr.contains("no Package.swift there"), r.stderr)

        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
        try "// name: \"Strata\"\n".write(to: checkout.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        r = try runProcess(strataExecutable, ["new", "my-video", "--strata", checkout.path], directory: folder)
        XCTAssertEqual(r.status, 0, r.stderr)
        let project = folder.appendingPathComponent("my-video")
        let manifest = try String(contentsOf: project.appendingPathComponent("Package.swift"), encoding: .utf8)
        XCTAssertTrue(manifest.contains(".package(path: \"\(checkout.path)\")"), manifest)
        XCTAssertTrue(manifest.contains(".product(name: \"Strata\", package: \"strata-checkout\")"), manifest)
        let script = try String(contentsOf: project.appendingPathComponent("Sources/my-video/MyVideo.swift"), encoding: .utf8)
        XCTAssertTrue(script.contains("struct MyVideo: StrataScript"), script)
        XCTAssertTrue(script.contains("VStack"), "the default is a DSL scene")
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: project.appendingPathComponent("out").path, isDirectory: &isFolder) && isFolder.boolValue,
                      "out/, where the README's commands write, exists")
        for file in [".gitignore", "README.md", "Tests/MyVideoTests/MyVideoTests.swift"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: project.appendingPathComponent(file).path), file)
        }
        let readme = try String(contentsOf: project.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("swift run my-video -o out/my-video.mp4"), readme)
        XCTAssertTrue(readme.contains("swift run -c release my-video -o out/my-video.mp4"), readme)
        XCTAssertTrue(readme.contains("swift test"), readme)

        // Again into the same (now non-empty) folder: refused, nothing changed.
        try "mine".write(to: project.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        r = try runProcess(strataExecutable, ["new", "my-video", "--strata", checkout.path, "--template", "coreanimation"], directory: folder)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("exists and is not empty"), r.stderr)
        XCTAssertEqual(try String(contentsOf: project.appendingPathComponent("Sources/my-video/MyVideo.swift"), encoding: .utf8), script)
        XCTAssertEqual(try String(contentsOf: project.appendingPathComponent("notes.txt"), encoding: .utf8), "mine")

        // An empty folder is fine; a file in the way is not.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
        r = try runProcess(strataExecutable, ["new", "empty", "--strata", checkout.path, "--template", "template"], directory: folder)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("empty/Templates/empty/empty.yaml").path))
        try "x".write(to: folder.appendingPathComponent("afile"), atomically: true, encoding: .utf8)
        r = try runProcess(strataExecutable, ["new", "afile", "--strata", checkout.path], directory: folder)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("afile"), encoding: .utf8), "x")

        r = try runProcess(strataExecutable, ["new", "x", "--template", "lottie", "--strata", checkout.path], directory: folder)
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.contains("expected one of dsl, coreanimation, template"), r.stderr)
    }

    func testNewProjectNamesAndSources() throws {
        let p = try NewProject(name: "my-first_video", strata: .url("https://example.com/org/Strata.git"))
        XCTAssertEqual(p.typeName, "MyFirstVideo")
        XCTAssertEqual(p.moduleName, "my_first_video")
        XCTAssertEqual(p.strata.identity, "strata")
        XCTAssertTrue(p.packageManifest.contains(".package(url: \"https://example.com/org/Strata.git\", branch: \"main\")"))
        XCTAssertEqual(NewProject.Source("git@example.com:org/strata.git"), .url("git@example.com:org/strata.git"))
        XCTAssertEqual(NewProject.Source("../Strata", workingDirectory: URL(fileURLWithPath: "/home/ada/videos")), .path("/home/ada/Strata"))
        XCTAssertEqual(NewProject.Source.path("/home/ada/Strata").identity, "strata")
        for bad in ["", "9lives", "my video", "../x", "vidéo"] {
            XCTAssertThrowsError(try NewProject(name: bad, strata: .path("/s")), bad)
        }
        // Core Animation code keeps its own frame rate (--fps is refused for it): its README's GIF
        // command does not use it; the DSL's does.
        let ca = try NewProject(name: "spin", kind: .coreanimation, strata: .path("/s"))
        XCTAssertTrue(ca.readme.contains("swift run -c release spin -o out/spin.gif --scale 0.5   # a GIF"), ca.readme)
        XCTAssertFalse(ca.readme.contains("--fps 15"), ca.readme)
        XCTAssertTrue(p.readme.contains("-o out/my-first_video.gif --fps 15 --scale 0.5"), p.readme)
        // The template project's template is a valid one whose scene is the size the test expects.
        let t = try NewProject(name: "promo", kind: .template, strata: .path("/s"))
        let yaml = try XCTUnwrap(t.files.first { $0.path == "Templates/promo/promo.yaml" }?.contents)
        let url = folder.appendingPathComponent("promo.yaml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        let scene = try Template(contentsOf: url).makeScene()
        XCTAssertEqual(scene.size, CGSize(width: 1280, height: 720))
        XCTAssertEqual(scene.duration, 3)
    }

    // MARK: Finding templates

    func testTemplatesInstalledBesideTheExecutableAreFoundFromAnyFolder() throws {
        let prefix = folder.appendingPathComponent("prefix")
        let templates = prefix.appendingPathComponent("share/strata/Templates/hello")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try "name: Hello\nsize: [10, 10]\nfps: 1\nduration: 1\nlayers: []\n"
            .write(to: templates.appendingPathComponent("hello.yaml"), atomically: true, encoding: .utf8)
        let executable = prefix.appendingPathComponent("bin/strata")
        try "#!/bin/sh\n".write(to: executable, atomically: true, encoding: .utf8)
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let folders = TemplateLibrary.searchFolders(environment: [:], workingDirectory: elsewhere, executable: executable)
        XCTAssertEqual(folders.map(\.path), [prefix.appendingPathComponent("share/strata/Templates").path]
            + (FileManager.default.fileExists(atPath: "/opt/strata/Templates") ? ["/opt/strata/Templates"] : []))
        XCTAssertEqual(try TemplateLibrary.locate("hello", in: folders).lastPathComponent, "hello.yaml")

        // Through a symbolic link on PATH (as /usr/local/bin/strata → …): the link is resolved.
        let link = folder.appendingPathComponent("strata-link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: executable)
        XCTAssertEqual(TemplateLibrary.installedTemplatesFolder(executable: link).path,
                       prefix.appendingPathComponent("share/strata/Templates").path)
    }

    func testNothingFoundListsEachFolderSearchedAndHowToAddOne() throws {
        let message = TemplateLibrary.nothingFoundMessage(environment: ["STRATA_TEMPLATES": "mine:/nowhere"], workingDirectory: folder,
                                                          executable: URL(fileURLWithPath: "/opt/x/bin/strata"))
        let lines = message.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "No templates found. Searched, in order:")
        XCTAssertEqual(lines[1], "  \(folder.path)/mine  (does not exist)")
        XCTAssertEqual(lines[2], "  /nowhere  (does not exist)")
        XCTAssertEqual(lines[3], "  \(folder.path)/Templates  (does not exist)")
        XCTAssertEqual(lines[4], "  /opt/x/share/strata/Templates  (does not exist)")
        XCTAssertTrue(lines[5].hasPrefix("  /opt/strata/Templates  ("), lines[5])
        XCTAssertTrue(message.contains("export STRATA_TEMPLATES="), message)

        // The command prints it from a folder where nothing is found.
        let r = try runProcess(strataExecutable, ["templates"], environment: ["STRATA_TEMPLATES": folder.appendingPathComponent("none").path],
                               directory: folder)
        if r.text.hasPrefix("No templates found") {
            XCTAssertTrue(r.text.contains("\(folder.path)/none  (does not exist)"), r.text)
            XCTAssertTrue(r.text.contains("STRATA_TEMPLATES"), r.text)
        } else {
            // Templates installed beside this build or in /opt/strata are found instead.
            XCTAssertEqual(r.status, 0, r.stderr)
        }
    }

    // MARK: Did you mean

    func testNearestNameSuggestsOnlyNearNames() {
        XCTAssertEqual(NearestName.suggestion(for: "fontsize", among: ["fontSize", "font", "frame"]), "fontSize")
        XCTAssertEqual(NearestName.suggestion(for: "foregroundColour", among: ["foregroundColor", "backgroundColor"]), "foregroundColor")
        XCTAssertEqual(NearestName.suggestion(for: "opcaity", among: ["opacity", "position"]), "opacity")
        XCTAssertEqual(NearestName.suggestion(for: "lowerthird", among: ["lower-third", "title-card"]), "lower-third")
        XCTAssertNil(NearestName.suggestion(for: "colour", among: ["opacity", "position"]))
        XCTAssertNil(NearestName.suggestion(for: "x", among: ["size"]))
        XCTAssertEqual(NearestName.distance(Array("kitten"), Array("sitting")), 3)
        XCTAssertEqual(NearestName.distance(Array("ab"), Array("ba")), 1)
        XCTAssertEqual(NearestName.distance(Array(""), Array("abc")), 3)
    }

    func testAnUnknownLayerPropertySuggestsTheNearestFirst() throws {
        let yaml = "size: [100, 100]\nfps: 10\nduration: 1\nlayers:\n  - {type: text, string: hi, fontsize: 20, colour: red}\n"
        let url = folder.appendingPathComponent("t.yaml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Template(contentsOf: url).makeScene()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("layers[0].fontsize: unknown property for a text layer; did you mean \"fontSize\"? (known: "), text)
            // No near name: only the list.
            XCTAssertTrue(text.contains("layers[0].colour: unknown property for a text layer (known: "), text)
        }
    }

    // MARK: The terminal-typing template's description

    func testAListParameterCountsItemsAndShowsItsCommaHoldingDefaultAsJSON() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Templates/terminal-typing/terminal-typing.yaml")
        let t = try Template(contentsOf: url)
        let lines = try XCTUnwrap(t.parameters.first { $0.name == "lines" })
        XCTAssertTrue(lines.summary.contains("at most 40 items"), lines.summary)
        XCTAssertFalse(lines.summary.contains("characters"), lines.summary)
        // The default, as --set would take it, reads back as the same seven lines.
        let text = try XCTUnwrap(lines.defaultText)
        XCTAssertTrue(text.hasPrefix("[\"$ swift build"), text)
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String])
        XCTAssertEqual(parsed.count, 7)
        XCTAssertEqual(parsed[2], "\u{1B}[32mBuild of product 'strata' complete!\u{1B}[0m (41.27s)")
        XCTAssertEqual(parsed[4], "ada.mp4: 150 frames, 1920×1080, 5 s")
        TerminalNodes.register()  // the template's terminal layer is StrataTerminal's
        let filled = try t.makeScene(TemplateArguments(text: ["lines": text]))
        XCTAssertEqual(filled.duration, try t.makeScene().duration)

        // A list without commas in its items keeps the short form.
        let plain = folder.appendingPathComponent("p.yaml")
        try "size: [10, 10]\nfps: 1\nduration: 1\nparameters:\n  - {name: words, type: list, default: [a, b], minLength: 1, maxLength: 3}\nlayers: []\n"
            .write(to: plain, atomically: true, encoding: .utf8)
        let words = try XCTUnwrap(try Template(contentsOf: plain).parameters.first)
        XCTAssertEqual(words.summary, "words (list, default a, b, at least 1 items, at most 3 items)")
    }

    // MARK: Batch progress

    private func item(_ row: Int, _ status: BatchItem.Status) -> BatchItem {
        BatchItem(row: row, line: row + 1, output: "\(row).mp4", status: status, error: nil, seconds: nil)
    }

    private func progress(_ done: Int, of total: Int) -> ExportProgress {
        ExportProgress(framesDone: done, frameCount: total, framesPerSecond: 10, secondsRemaining: 1)
    }

    func testInterruptedRowsAreNotCountedAsDone() {
        var p = BatchProgress(total: 6)
        for row in 1...4 {
            p.handle(.started(row: row, output: "\(row).mp4", job: 0))
            p.handle(.finished(item(row, .rendered), done: row, total: 6))
        }
        p.handle(.started(row: 5, output: "5.mp4", job: 0))
        p.handle(.progress(row: 5, job: 0, progress(30, of: 60)))
        p.handle(.finished(item(5, .interrupted), done: 4, total: 6))
        XCTAssertEqual(p.done, 4)
        XCTAssertEqual(p.interrupted, 1)
        XCTAssertTrue(p.running.isEmpty)
        XCTAssertEqual(p.line(elapsed: 8), "4/6 rows, 1 interrupted  ETA 2s")
    }

    func testTheETAAfterResumeCountsOnlyTheWorkStillToDo() throws {
        // 10 rows, 8 already rendered by an earlier run: skipped at once. Then one row renders in
        // 10 s: one is left, so about 10 s more — not the 0.25 s that counting skipped rows as
        // work would give.
        var p = BatchProgress(total: 10)
        XCTAssertNil(p.secondsRemaining(elapsed: 0))
        for row in 1...8 { p.handle(.finished(item(row, .skipped), done: row, total: 10)) }
        XCTAssertNil(p.secondsRemaining(elapsed: 0.01), "nothing rendered yet: no pace to go by")
        p.handle(.started(row: 9, output: "9.mp4", job: 0))
        p.handle(.progress(row: 9, job: 0, progress(15, of: 30)))
        XCTAssertEqual(try XCTUnwrap(p.secondsRemaining(elapsed: 5)), 15, accuracy: 1e-9)
        p.handle(.finished(item(9, .rendered), done: 9, total: 10))
        XCTAssertEqual(try XCTUnwrap(p.secondsRemaining(elapsed: 10)), 10, accuracy: 1e-9)
        XCTAssertEqual(p.line(elapsed: 10), "9/10 rows, 8 already there  ETA 10s")
        p.handle(.finished(item(10, .failed), done: 10, total: 10))
        XCTAssertEqual(try XCTUnwrap(p.secondsRemaining(elapsed: 11)), 0, accuracy: 1e-9)
    }
}
