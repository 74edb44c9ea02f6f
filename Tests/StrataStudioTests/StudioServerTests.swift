// `strata preview` over its HTTP contract: a studio started on a free port (port 0) and asked
// with a raw socket client, as a script would. Frames are compared byte for byte with what
// `strata still` writes for the same template, time and scale.
import Foundation
import XCTest
@testable import StrataCLI
@testable import StrataStudio
#if canImport(Glibc)
import Glibc
#endif

final class StudioServerTests: XCTestCase {
    static let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Templates")

    private var studios: [Studio] = []
    private var folders: [URL] = []

    override func setUp() {
        super.setUp()
        LinkedNodeKinds.register()
    }

    override func tearDown() {
        for s in studios { s.stop() }
        for f in folders { try? FileManager.default.removeItem(at: f) }
        studios = []
        folders = []
        super.tearDown()
    }

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("studio-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        folders.append(url)
        return url
    }

    /// A studio of `arguments` (after `preview`) serving on a free port.
    private func startStudio(_ arguments: [String], watchInterval: Double? = nil) throws -> Studio {
        let parsed = try StrataCommand.parseAsRoot(["preview"] + arguments + ["--port", "0"])
        let command = try XCTUnwrap(parsed as? PreviewCommand<TemplateSource>)
        let studio = try command.makeStudio(log: { _ in })
        if let watchInterval {
            var c = studio.configuration
            c.watchInterval = watchInterval
            let fast = try Studio(target: studio.target, configuration: c)
            try fast.start()
            studios.append(fast)
            return fast
        }
        try studio.start()
        studios.append(studio)
        XCTAssertGreaterThan(studio.port, 0)
        return studio
    }

    private func decode(_ png: Data) throws -> Bitmap {
        let url = try temporaryFolder().appendingPathComponent("frame.png")
        try png.write(to: url)
        return try Bitmap(contentsOfPNG: url)
    }

    /// What `strata still` writes for these arguments.
    private func still(_ template: String, time: String, scale: String) throws -> Data {
        let out = try temporaryFolder().appendingPathComponent("still.png")
        var command = try StrataCommand.parseAsRoot(["still", template, "--time", time, "--scale", scale, "-o", out.path])
        try command.run()
        return try Data(contentsOf: out)
    }

    func testFramesEqualStillForTemplatesAndTimes() throws {
        for (name, cases) in [("lower-third", [("0", "0.25"), ("0.4", "0.25"), ("2.5", "0.2")]),
                              ("title-card", [("1.1", "0.25"), ("0.55", "0.125")])] {
            let template = Self.templates.appendingPathComponent(name).path
            let studio = try startStudio([template])
            // Out of order: a later time first, then an earlier one.
            for (time, scale) in cases.reversed() {
                let response = try HTTPTestClient.get(studio, "/api/frame?t=\(time)&scale=\(scale)")
                XCTAssertEqual(response.status, 200, "\(name) t=\(time): \(response.text)")
                XCTAssertEqual(response.header("content-type"), "image/png")
                let expected = try still(template, time: time, scale: scale)
                XCTAssertEqual(response.body, expected, "\(name) at t = \(time), scale \(scale): the studio's PNG differs from strata still's")
                // The page's uncompressed PNG: other bytes, exactly the same pixels (the
                // lower third's plate is translucent over a transparent background).
                let fast = try HTTPTestClient.get(studio, "/api/frame?t=\(time)&scale=\(scale)&compression=none")
                XCTAssertEqual(fast.status, 200)
                XCTAssertNotEqual(fast.body, expected)
                XCTAssertEqual(try decode(fast.body), try decode(expected), "\(name) at t = \(time): the uncompressed PNG's pixels differ")
            }
        }
    }

    func testContactSheetEqualsStrataSheet() throws {
        let template = Self.templates.appendingPathComponent("lower-third").path
        let studio = try startStudio([template])
        let response = try HTTPTestClient.get(studio, "/api/sheet?count=6&columns=3&reduction=8&scale=0.5")
        XCTAssertEqual(response.status, 200, response.text)
        let out = try temporaryFolder().appendingPathComponent("sheet.png")
        var command = try StrataCommand.parseAsRoot(["sheet", template, "--count", "6", "--columns", "3", "--reduction", "8", "--scale", "0.5", "-o", out.path])
        try command.run()
        XCTAssertEqual(response.body, try Data(contentsOf: out))
        let plain = try HTTPTestClient.get(studio, "/api/sheet?count=6&columns=3&reduction=8&scale=0.5&labels=0")
        var unlabelled = try StrataCommand.parseAsRoot(["sheet", template, "--count", "6", "--columns", "3", "--reduction", "8", "--scale", "0.5",
                                                        "--no-labels", "-o", out.path])
        try unlabelled.run()
        XCTAssertEqual(plain.body, try Data(contentsOf: out), "labels=0 is strata sheet --no-labels")
        let bad = try HTTPTestClient.get(studio, "/api/sheet?count=0")
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(bad.json?["field"] as? String, "count")
    }

    func testRowsOfACSVBesideTheTemplate() throws {
        let folder = try temporaryFolder().appendingPathComponent("card")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        size: [40, 30]
        duration: 1
        parameters:
          - {name: fill, type: color, default: "#FF0000"}
        layers:
          - {type: layer, size: [40, 30], position: [20, 15], backgroundColor: "{{fill}}"}
        """.write(to: folder.appendingPathComponent("card.yaml"), atomically: true, encoding: .utf8)
        try "fill,label\n#00FF00,green\n\"#0000FF\",blue\n".write(to: folder.appendingPathComponent("people.csv"), atomically: true, encoding: .utf8)
        let studio = try startStudio([folder.path])
        let rows = try XCTUnwrap(try HTTPTestClient.get(studio, "/api/rows?file=people.csv").json)
        XCTAssertEqual(rows["columns"] as? [String], ["fill", "label"])
        let list = try XCTUnwrap(rows["rows"] as? [[String: Any]])
        XCTAssertEqual(list.map { ($0["fields"] as? [String: String])?["fill"] }, ["#00FF00", "#0000FF"])
        XCTAssertEqual(list.map { $0["line"] as? Int }, [2, 3])
        // Only files the studio listed, by name: no path from the request reaches the file system.
        for name in ["../card/people.csv", "/etc/passwd", "card.yaml", "missing.csv"] {
            let r = try HTTPTestClient.get(studio, "/api/rows?file=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            XCTAssertEqual(r.status, 404, name)
            XCTAssertEqual(r.json?["field"] as? String, "file")
        }
    }

    func testFrameIndexIsTheFramesTime() throws {
        let template = Self.templates.appendingPathComponent("lower-third").path
        let studio = try startStudio([template])
        let byIndex = try HTTPTestClient.get(studio, "/api/frame?frame=12&scale=0.125")
        let byTime = try HTTPTestClient.get(studio, "/api/frame?t=0.4&scale=0.125")
        XCTAssertEqual(byIndex.status, 200)
        XCTAssertEqual(byIndex.body, byTime.body)
        XCTAssertEqual(byIndex.header("x-strata-time"), "0.4")
    }

    func testSceneDescribesTimelineParametersAndSize() throws {
        let studio = try startStudio([Self.templates.appendingPathComponent("lower-third").path, "--set", "name=Grace"])
        let response = try HTTPTestClient.get(studio, "/api/scene")
        XCTAssertEqual(response.status, 200)
        let scene = try XCTUnwrap(response.json)
        XCTAssertEqual(scene["width"] as? Double, 1920)
        XCTAssertEqual(scene["height"] as? Double, 1080)
        XCTAssertEqual(scene["fps"] as? Double, 30)
        XCTAssertEqual(scene["duration"] as? Double, 5)
        XCTAssertEqual(scene["frameCount"] as? Int, 150)
        XCTAssertEqual(scene["files"] as? [String], [])
        let parameters = try XCTUnwrap(scene["parameters"] as? [String: Any])
        let values = try XCTUnwrap(parameters["values"] as? [String: Any])
        XCTAssertEqual(values["name"] as? String, "Grace")
        XCTAssertEqual(values["accent"] as? String, "#FF5A36")
        let schema = try XCTUnwrap(parameters["schema"] as? [String: Any])
        let duration = try XCTUnwrap((schema["properties"] as? [String: Any])?["duration"] as? [String: Any])
        XCTAssertEqual(duration["minimum"] as? Double, 2)
        XCTAssertEqual(duration["maximum"] as? Double, 60)
        let rows = try XCTUnwrap(scene["timeline"] as? [[String: Any]])
        let plate = try XCTUnwrap(rows.first { $0["layer"] as? String == "plate" }, "no timeline row for the layer 'plate' in \(rows.map { $0["layer"] ?? "?" })")
        let animations = try XCTUnwrap(plate["animations"] as? [[String: Any]])
        let slide = try XCTUnwrap(animations.first { $0["keyPath"] as? String == "transform.translation.x" })
        XCTAssertEqual(slide["begin"] as? Double, 0)
        XCTAssertEqual(try XCTUnwrap(slide["end"] as? Double), 0.7, accuracy: 1e-9)
        XCTAssertEqual(slide["ticks"] as? [Double], [0, 0.7])
    }

    func testLayerPresentationAtThePlayhead() throws {
        let studio = try startStudio([Self.templates.appendingPathComponent("lower-third").path])
        // The plate is pinned 96 points from the left and slides in from 120 points further left.
        let held = try XCTUnwrap(try HTTPTestClient.get(studio, "/api/layer?name=plate&t=2").json)
        let frame = try XCTUnwrap(held["frame"] as? [Double])
        XCTAssertEqual(frame[0], 96, accuracy: 1e-6)
        XCTAssertEqual(frame[1] + frame[3], 1080 - 96, accuracy: 1e-6)
        XCTAssertEqual((held["values"] as? [String: Any])?["opacity"] as? Double, 1)
        let start = try XCTUnwrap(try HTTPTestClient.get(studio, "/api/layer?name=plate&t=0").json)
        XCTAssertEqual(try XCTUnwrap(start["frame"] as? [Double])[0], 96 - 120, accuracy: 1e-6)
        XCTAssertEqual((start["values"] as? [String: Any])?["opacity"] as? Double, 0)
        let missing = try HTTPTestClient.get(studio, "/api/layer?name=nothing&t=0")
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(missing.json?["field"] as? String, "name")
        XCTAssertEqual(try HTTPTestClient.get(studio, "/api/layer?name=plate&t=9").json?["field"] as? String, "t")
    }

    func testParametersChangeTheFrameAndWrongTypesNameTheField() throws {
        let studio = try startStudio([Self.templates.appendingPathComponent("lower-third").path])
        let before = try HTTPTestClient.get(studio, "/api/frame?t=2&scale=0.125")
        let token = try HTTPTestClient.token(studio)
        let ok = try HTTPTestClient.post(studio, "/api/parameters", json: ##"{"accent": "#00FF00", "name": "Grace Hopper"}"##, token: token)
        XCTAssertEqual(ok.status, 200, ok.text)
        let after = try HTTPTestClient.get(studio, "/api/frame?t=2&scale=0.125")
        XCTAssertEqual(after.status, 200)
        XCTAssertNotEqual(before.body, after.body, "the frame did not change with the parameters")
        // The same values on the command line give the same bytes as `still`.
        let expected = try still(Self.templates.appendingPathComponent("lower-third").path + "", time: "2", scale: "0.125")
        XCTAssertEqual(before.body, expected)

        let wrong = try HTTPTestClient.post(studio, "/api/parameters", json: #"{"duration": "long"}"#, token: token)
        XCTAssertEqual(wrong.status, 422, wrong.text)
        XCTAssertEqual(wrong.json?["field"] as? String, "duration")
        let tooBig = try HTTPTestClient.post(studio, "/api/parameters", json: #"{"duration": 600}"#, token: token)
        XCTAssertEqual(tooBig.json?["field"] as? String, "duration", tooBig.text)
        let unknown = try HTTPTestClient.post(studio, "/api/parameters", json: #"{"colour": "red"}"#, token: token)
        XCTAssertEqual(unknown.status, 400)
        XCTAssertEqual(unknown.json?["field"] as? String, "colour")
        let malformed = try HTTPTestClient.post(studio, "/api/parameters", json: #"{"name": "#, token: token)
        XCTAssertEqual(malformed.status, 400)
        XCTAssertEqual(malformed.json?["field"] as? String, "body")
        // A refused value changes nothing.
        let still2 = try HTTPTestClient.get(studio, "/api/frame?t=2&scale=0.125")
        XCTAssertEqual(still2.body, after.body)
    }

    func testBadFrameRequestsAreAnswered4xxNamingTheField() throws {
        let studio = try startStudio([Self.templates.appendingPathComponent("lower-third").path])
        for (query, field) in [("t=-1", "t"), ("t=5.01", "t"), ("t=abc", "t"), ("t=nan", "t"), ("", "t"), ("t=1&frame=2", "frame"),
                               ("frame=150", "frame"), ("frame=1.5", "frame"), ("t=1&scale=0", "scale"), ("t=1&scale=1e9", "scale"),
                               ("t=1&scale=-2", "scale"), ("t=1&zoom=2", "zoom"), ("t=%ZZ", "t"), ("t=1&compression=fast", "compression")] {
            let r = try HTTPTestClient.get(studio, "/api/frame?\(query)")
            XCTAssertEqual(r.status, 400, "\(query): \(r.text)")
            XCTAssertEqual(r.json?["field"] as? String, field, "\(query): \(r.text)")
        }
        let missing = try HTTPTestClient.get(studio, "/../../etc/passwd")
        XCTAssertEqual(missing.status, 404)
        let garbage = try HTTPTestClient.raw(studio, "HELLO\r\n\r\n")
        XCTAssertEqual(garbage.status, 400)
        XCTAssertEqual(garbage.json?["field"] as? String, "request-line")
        let noHost = try HTTPTestClient.raw(studio, "GET /api/scene HTTP/1.1\r\n\r\n")
        XCTAssertEqual(noHost.status, 400)
        XCTAssertEqual(noHost.json?["field"] as? String, "host")
        let huge = try HTTPTestClient.raw(studio, "POST /api/parameters HTTP/1.1\r\nHost: 127.0.0.1:\(studio.port)\r\nContent-Length: 99999999\r\n\r\n")
        XCTAssertEqual(huge.status, 413)
        // Still serving after all that.
        XCTAssertEqual(try HTTPTestClient.get(studio, "/api/frame?t=1&scale=0.125").status, 200)
    }

    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        let studio = try startStudio([Self.templates.appendingPathComponent("lower-third").path])
        let fd = try HTTPTestClient.connect(studio.port)
        defer { close(fd) }
        let host = "Host: 127.0.0.1:\(studio.port)"
        HTTPTestClient.sendAll(fd, Data("GET /api/frame?frame=3&scale=0.125 HTTP/1.1\r\n\(host)\r\n\r\nGET /studio.css HTTP/1.1\r\n\(host)\r\nConnection: close\r\n\r\n".utf8))
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        let first = try HTTPTestClient.parse(Data(bytes))
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.header("connection"), "keep-alive")
        let length = try XCTUnwrap(first.header("content-length").flatMap(Int.init))
        let end = try XCTUnwrap(Data(bytes).range(of: Data("\r\n\r\n".utf8))).upperBound + length
        let second = try HTTPTestClient.parse(Data(bytes[end...]))
        XCTAssertEqual(second.status, 200)
        XCTAssertEqual(second.header("content-type"), "text/css; charset=utf-8")
    }

    func testRandomBytesNeverStopTheServer() throws {
        let studio = try startStudio([Self.templates.appendingPathComponent("lower-third").path])
        var generator = SystemRandomNumberGenerator()
        let pieces = ["GET ", "POST ", "/api/frame?", "t=", "frame=", "scale=", "%", "&", "\r\n", ": ", "Host", "Content-Length: ",
                      "99999999999999999999", "-1", "\u{0}", "é", " HTTP/1.1", "\r\n\r\n", "{", "\"", "/api/render/", "../"]
        for _ in 0..<150 {
            var text = ""
            for _ in 0..<Int.random(in: 1...14, using: &generator) { text += pieces.randomElement(using: &generator)! }
            var junk = Data(text.utf8)
            for _ in 0..<Int.random(in: 0...8, using: &generator) { junk.append(UInt8.random(in: 0...255, using: &generator)) }
            // Closed at once: the server must not wait for more (nor stop).
            let fd = try HTTPTestClient.connect(studio.port)
            HTTPTestClient.sendAll(fd, junk)
            shutdown(fd, Int32(SHUT_WR))
            var chunk = [UInt8](repeating: 0, count: 4096)
            var head = [UInt8]()
            while true {
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { break }
                head.append(contentsOf: chunk[0..<n])
            }
            close(fd)
            if let status = String(decoding: head.prefix(12), as: UTF8.self).split(separator: " ").dropFirst().first.flatMap({ Int($0) }) {
                XCTAssertTrue((200..<500).contains(status), "\(status) for \(junk.map { String(format: "%02x", $0) }.joined())")
            }
        }
        XCTAssertEqual(try HTTPTestClient.get(studio, "/api/frame?t=1&scale=0.125").status, 200)
    }

    func testBoundBeyondLoopbackOnlyIPLiteralsWithThePortAreServed() throws {
        let studio = try startStudio([Self.templates.appendingPathComponent("lower-third").path, "--host", "0.0.0.0"])
        let p = studio.port
        for host in ["127.0.0.1:\(p)", "192.168.1.5:\(p)", "[fe80::1]:\(p)", "localhost:\(p)", "0.0.0.0:\(p)"] {
            XCTAssertTrue(studio.hostAllowed(host), host)
        }
        for host in ["attacker.example:\(p)", "192.168.1.5:\(p + 1)", "192.168.1.5", "127.0.0.1.nip.io:\(p)"] {
            XCTAssertFalse(studio.hostAllowed(host), host)
        }
        XCTAssertEqual(try HTTPTestClient.get(studio, "/api/scene", host: "10.1.2.3:\(p)").status, 200)
        XCTAssertEqual(try HTTPTestClient.get(studio, "/api/scene", host: "rebind.example:\(p)").status, 403)
    }

    func testForeignHostOriginAndMissingTokenAreRefused() throws {
        let studio = try startStudio([Self.templates.appendingPathComponent("lower-third").path])
        let rebound = try HTTPTestClient.get(studio, "/api/scene", host: "evil.example:\(studio.port)")
        XCTAssertEqual(rebound.status, 403)
        XCTAssertEqual(rebound.json?["field"] as? String, "host")
        let otherPort = try HTTPTestClient.get(studio, "/", host: "127.0.0.1:1")
        XCTAssertEqual(otherPort.status, 403)
        let origin = try HTTPTestClient.get(studio, "/api/scene", extra: ["Origin: http://evil.example"])
        XCTAssertEqual(origin.status, 403)
        XCTAssertEqual(origin.json?["field"] as? String, "origin")
        XCTAssertEqual(try HTTPTestClient.get(studio, "/api/scene", host: "localhost:\(studio.port)").status, 200)

        let noToken = try HTTPTestClient.post(studio, "/api/parameters", json: #"{"name": "X"}"#, token: nil)
        XCTAssertEqual(noToken.status, 403)
        XCTAssertEqual(noToken.json?["field"] as? String, "x-strata-token")
        let wrongToken = try HTTPTestClient.post(studio, "/api/parameters", json: #"{"name": "X"}"#, token: String(repeating: "0", count: 48))
        XCTAssertEqual(wrongToken.status, 403)
        let render = try HTTPTestClient.post(studio, "/api/render", json: #"{"output": "a.gif"}"#, token: nil)
        XCTAssertEqual(render.status, 403)
        // The page carries the token and a policy that allows only its own scripts.
        let page = try HTTPTestClient.get(studio, "/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.text.contains(studio.token))
        XCTAssertTrue(page.header("content-security-policy")?.contains("script-src 'self'") ?? false)
    }

    func testTemplateEditedOnDiskReloadsAndErrorsKeepTheLastGoodScene() throws {
        let folder = try temporaryFolder().appendingPathComponent("card")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("card.yaml")
        let yaml = """
        size: [64, 48]
        fps: 10
        duration: 1
        parameters:
          - {name: fill, type: color, default: "#FF0000"}
        layers:
          - {type: layer, id: box, size: [32, 24], position: [32, 24], backgroundColor: "{{fill}}"}
        timeline:
          - {type: wait, duration: 0.3}
          - {type: marker, name: hit}
          - {type: animate, target: box, property: opacity, from: 0.5, to: 1, duration: 0.2}
        """
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let studio = try startStudio([folder.path], watchInterval: 0.05)
        let scene = try XCTUnwrap(try HTTPTestClient.get(studio, "/api/scene").json)
        XCTAssertEqual((scene["markers"] as? [[String: Any]])?.first?["name"] as? String, "hit")
        XCTAssertEqual((scene["markers"] as? [[String: Any]])?.first?["time"] as? Double, 0.3)
        let box = try XCTUnwrap((scene["timeline"] as? [[String: Any]])?.first { $0["layer"] as? String == "box" })
        let fade = try XCTUnwrap((box["animations"] as? [[String: Any]])?.first)
        XCTAssertEqual(fade["keyPath"] as? String, "opacity")
        XCTAssertEqual(try XCTUnwrap(fade["begin"] as? Double), 0.3, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(fade["end"] as? Double), 0.5, accuracy: 1e-9)
        let before = try HTTPTestClient.get(studio, "/api/frame?t=0.5")
        XCTAssertEqual(before.status, 200)

        let events = try HTTPTestClient.EventStream(studio)
        XCTAssertTrue(try events.next(timeout: 5).contains("event: hello"))
        // A file added beside the template reloads it, and the page is offered the file.
        try Data([1]).write(to: folder.appendingPathComponent("logo.png"))
        XCTAssertTrue(try events.next(timeout: 5).contains("event: reload"))
        XCTAssertEqual(try HTTPTestClient.get(studio, "/api/scene").json?["files"] as? [String], ["logo.png"])

        try yaml.replacingOccurrences(of: "size: [32, 24]", with: "size: [16, 24]").write(to: file, atomically: true, encoding: .utf8)
        let reload = try events.next(timeout: 5)
        XCTAssertTrue(reload.contains("event: reload"), reload)
        let after = try HTTPTestClient.get(studio, "/api/frame?t=0.5")
        XCTAssertNotEqual(before.body, after.body, "the edited template's frame is the old one")
        let expected = try still(folder.path, time: "0.5", scale: "1")
        XCTAssertEqual(after.body, expected)

        try yaml.replacingOccurrences(of: "duration: 1", with: "duration: -3").write(to: file, atomically: true, encoding: .utf8)
        var error = try events.next(timeout: 5)
        while error.contains("event: reload") { error = try events.next(timeout: 5) }
        XCTAssertTrue(error.contains("event: error") && error.contains("duration"), error)
        let kept = try HTTPTestClient.get(studio, "/api/frame?t=0.5")
        XCTAssertEqual(kept.body, after.body, "the last good scene is not kept")
        XCTAssertNotNil(try HTTPTestClient.get(studio, "/api/scene").json?["error"])
    }

    func testRenderQueueWritesOnlyInTheOutputFolder() throws {
        let out = try temporaryFolder()
        let studio = try startStudio([Self.templates.appendingPathComponent("lower-third").path, "--output-folder", out.path,
                                      "--set", "duration=2"])
        let token = try HTTPTestClient.token(studio)
        for (body, field) in [(#"{"output": "../x.gif"}"#, "output"), (#"{"output": "/tmp/x.gif"}"#, "output"),
                              (#"{"output": "x.exe"}"#, "output"), (#"{"output": "x.gif", "scale": "big"}"#, "scale"),
                              (#"{"output": "x.gif", "from": 5, "to": 2}"#, "to"), (#"{"output": "x.gif", "speed": 2}"#, "speed")] {
            let r = try HTTPTestClient.post(studio, "/api/render", json: body, token: token)
            XCTAssertEqual(r.status, 400, body)
            XCTAssertEqual(r.json?["field"] as? String, field, "\(body): \(r.text)")
        }
        let r = try HTTPTestClient.post(studio, "/api/render", json: #"{"output": "clip.gif", "scale": 0.05, "from": 0, "to": 5}"#, token: token)
        XCTAssertEqual(r.status, 202, r.text)
        let id = try XCTUnwrap(r.json?["id"] as? String)
        var state = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            state = try HTTPTestClient.get(studio, "/api/render/\(id)").json?["state"] as? String ?? ""
            if state == "done" || state == "failed" { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertEqual(state, "done")
        let file = try HTTPTestClient.get(studio, "/api/render/\(id)/file")
        XCTAssertEqual(file.header("content-type"), "image/gif")
        XCTAssertEqual(file.body, try Data(contentsOf: out.appendingPathComponent("clip.gif")))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), ["clip.gif"])
    }
}

/// A script's own scene, as `swift run my-video preview` serves it.
struct StudioTinyScript: StrataScript {
    var scene: Scene {
        Scene(size: CGSize(width: 80, height: 60), frameRate: 10, duration: 1, background: .hex("#203040")) {
            Layer().frame(width: 30, height: 20).background(.hex("#FF8800")).id("box").center().fadeIn(duration: 0.5)
        }
    }
}

final class StudioScriptPreviewTests: XCTestCase {
    func testAScriptsPreviewServesItsSceneAsStillRendersIt() throws {
        let parsed = try ScriptCommand<StudioTinyScript>.parseAsRoot(["preview", "--port", "0"])
        let command = try XCTUnwrap(parsed as? PreviewCommand<ScriptSource<StudioTinyScript>>)
        let studio = try command.makeStudio(log: { _ in })
        try studio.start()
        defer { studio.stop() }
        let frame = try HTTPTestClient.get(studio, "/api/frame?t=0.3&scale=2")
        XCTAssertEqual(frame.status, 200, frame.text)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("studio-script-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: out) }
        try StudioTinyScript.run(arguments: ["still", "--time", "0.3", "--scale", "2", "-o", out.path])
        XCTAssertEqual(frame.body, try Data(contentsOf: out))
        let scene = try XCTUnwrap(try HTTPTestClient.get(studio, "/api/scene").json)
        XCTAssertEqual(scene["frameCount"] as? Int, 10)
        let rows = try XCTUnwrap(scene["timeline"] as? [[String: Any]])
        XCTAssertEqual(rows.map { $0["layer"] as? String }, ["box"])
        // No parameters: a POST of values names the first one it cannot take.
        let token = try HTTPTestClient.token(studio)
        let r = try HTTPTestClient.post(studio, "/api/parameters", json: #"{"speed": 2}"#, token: token)
        XCTAssertEqual(r.status, 400)
        XCTAssertEqual(r.json?["field"] as? String, "speed")
    }
}

final class StudioFrameCacheTests: XCTestCase {
    func testTheCacheKeepsTheNewestFramesWithinItsBytes() {
        var cache = FrameCache(capacity: 100)
        func key(_ t: Double) -> FrameKey { FrameKey(generation: 0, scale: 1, time: t, stored: true) }
        cache.put(key(0), Data(count: 40))
        cache.put(key(1), Data(count: 40))
        XCTAssertNotNil(cache.get(key(0)))  // 0 is now the most recent
        cache.put(key(2), Data(count: 40))  // 120 bytes: the least recent (1) goes
        XCTAssertNil(cache.get(key(1)))
        XCTAssertNotNil(cache.get(key(0)))
        XCTAssertNotNil(cache.get(key(2)))
        cache.put(key(3), Data(count: 101))  // larger than the whole cache: not kept, nothing evicted
        XCTAssertNil(cache.get(key(3)))
        XCTAssertNotNil(cache.get(key(0)))
    }
}

final class StudioTimelineTests: XCTestCase {
    func testAnAnimationsIntervalTicksAndOddNumbers() throws {
        let a = CAKeyframeAnimation(keyPath: "opacity")
        a.values = [0, 1, 0.5]
        a.keyTimes = [0, 0.25, 1]
        a.beginTime = 1
        a.duration = 2
        a.repeatCount = 2
        let d = StudioTimeline.describe(a, key: "k", offset: 0, sceneEnd: 10)
        XCTAssertEqual(d["begin"] as? Double, 1)
        XCTAssertEqual(d["end"] as? Double, 5)
        XCTAssertEqual(d["ticks"] as? [Double], [1, 1.5, 3, 3, 3.5, 5])
        XCTAssertEqual(d["kind"] as? String, "keyframe")
        // NaN, ∞ and huge repeat counts still give a finite interval that JSON can encode.
        let odd = CABasicAnimation(keyPath: "position.x")
        odd.beginTime = .nan
        odd.duration = .infinity
        odd.repeatCount = 1e30
        odd.speed = .nan
        let o = StudioTimeline.describe(odd, key: "odd", offset: 0, sceneEnd: 4)
        XCTAssertTrue(JSONSerialization.isValidJSONObject(o), "\(o)")
        XCTAssertEqual(o["begin"] as? Double, 0)
        XCTAssertEqual(o["end"] as? Double, 4)
    }
}
