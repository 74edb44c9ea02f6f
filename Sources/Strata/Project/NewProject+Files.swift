// The text of the files `strata new` writes. Each scene is small and shows the usual moves: text
// that slides and fades in, a shape that grows, eased timing; the test renders a frame and checks
// what it shows, so that `swift test` means something from the first day.
import Foundation

extension NewProject {
    var packageManifest: String {
        """
        // swift-tools-version: 6.1
        import PackageDescription

        let package = Package(
            name: \(swiftLiteral(name)),
            platforms: [.macOS(.v14)],
            dependencies: [
                // Strata, from \(strataDescription). Change this line to move it.
                \(strata.packageLine),
            ],
            targets: [
                .executableTarget(name: \(swiftLiteral(name)),
                                  dependencies: [.product(name: "Strata", package: \(swiftLiteral(strata.identity)))]),
                .testTarget(name: \(swiftLiteral(typeName + "Tests")),
                            dependencies: [\(swiftLiteral(name)), .product(name: "Strata", package: \(swiftLiteral(strata.identity)))]),
            ]
        )

        """
    }

    private var strataDescription: String {
        switch strata {
        case .path: "a checkout on this machine"
        case .url: "its git repository (the main branch)"
        }
    }

    var script: String {
        switch kind {
        case .dsl: NewProjectFiles.dslScript(self)
        case .coreanimation: NewProjectFiles.coreAnimationScript(self)
        case .template: NewProjectFiles.templateScript(self)
        }
    }

    var tests: String {
        """
        // Renders frames of the scene and checks what they show. Run: swift test
        import Strata
        import XCTest
        @testable import \(moduleName)

        final class \(typeName)Tests: XCTestCase {
            func testTheSceneHasItsSizeAndLength() throws {
                let scene = \(typeName)().scene
                XCTAssertEqual(scene.size, CGSize(width: 1280, height: 720))
                XCTAssertEqual(scene.duration, 3, accuracy: 1e-9)
            }

            func testTheLastFrameShowsMoreThanTheBackground() throws {
                let scene = \(typeName)().scene
                let first = try scene.renderFrame(at: 0)
                let last = try scene.renderFrame(at: scene.duration - 0.5)
                XCTAssertEqual(last.width, 1280)
                XCTAssertEqual(last.height, 720)
                // By then the title has come in: some pixels differ from the first frame's.
                var changed = 0
                for y in stride(from: 0, to: last.height, by: 8) {
                    for x in stride(from: 0, to: last.width, by: 8) where last.pixel(x: x, y: y) != first.pixel(x: x, y: y) {
                        changed += 1
                    }
                }
                XCTAssertGreaterThan(changed, 50)
            }
        }

        """
    }

    var gitignore: String {
        """
        .build/
        .swiftpm/
        out/
        *.mp4
        *.gif

        """
    }

    var readme: String {
        let renderTemplate = kind == .template
            ? """

              The template renders without building anything, with any parameter changed:

              ```sh
              strata render Templates/\(name) --set title='Hello again' -o out/\(name).mp4
              strata templates Templates/\(name)     # its parameters
              ```

              """
            : ""
        return """
        # \(name)

        A video made with [Strata](\(strataLink)): the scene is `Sources/\(name)/\(typeName).swift`\(kind == .template ? ", filling in `Templates/\(name)/\(name).yaml`" : "").

        ```sh
        swift run \(name) -o out/\(name).mp4                       # build (debug) and render
        swift run \(name) still --time 1.5 -o out/frame.png        # one frame
        swift run \(name) sheet -o out/sheet.png                   # a contact sheet of the whole animation
        swift run -c release \(name) -o out/\(name).mp4            # the final video, with a release build
        swift run -c release \(name) -o out/\(name).gif \(gifOptions)   # a GIF
        swift test                                                 # the tests in Tests/
        ```
        \(renderTemplate)
        The first build compiles Strata too: a few minutes in debug, several times longer with
        `-c release`; later builds recompile only your code. A debug build renders more slowly:
        use it while you change the scene, and `-c release` for the final or a long video.
        `swift run \(name) --help` lists every option (`--size`, `--fps`, `--frames A..B`, …).

        A live preview: `strata preview .` here serves a page showing any frame, rebuilt on every save.

        """
    }

    /// A GIF's options: a DSL or template scene takes a new frame rate; Core Animation code sets
    /// its own (`--fps` is refused for it), so only the pixel scale changes.
    private var gifOptions: String { kind == .coreanimation ? "--scale 0.5" : "--fps 15 --scale 0.5" }

    private var strataLink: String {
        switch strata {
        case .path(let p): "file://" + p
        case .url(let u): u
        }
    }
}

enum NewProjectFiles {
    static func dslScript(_ p: NewProject) -> String {
        """
        // The scene, with Strata's DSL. Render: swift run -c release \(p.name) -o out/\(p.name).mp4
        import StrataCLI  // StrataScript and the command line; re-exports Strata

        @main
        struct \(p.typeName): StrataScript {
            var title = \(swiftLiteral(p.name))
            var subtitle = "Made with Strata"

            var scene: Scene {
                Scene(size: CGSize(width: 1280, height: 720), frameRate: 30, duration: 3, background: .hex("#101820")) {
                    VStack(spacing: 24) {
                        Text(title).font("DejaVu Sans Bold", size: 96).foreground(.white)
                            .slideIn(from: .bottom, distance: 60, duration: 0.6)
                        Text(subtitle).font("DejaVu Sans", size: 40).foreground(.hex("#9AA5B1"))
                            .fadeIn(duration: 0.6, delay: 0.5)
                        Shape(.roundedRect(CGRect(x: 0, y: 0, width: 320, height: 10), cornerRadius: 5)).fill(.hex("#FF5A36"))
                            .animate(.scaleX, from: 0, to: 1, duration: 0.8, timing: .named(.easeOutCubic), delay: 0.8)
                    }
                    .center()
                }
            }
        }

        """
    }

    static func coreAnimationScript(_ p: NewProject) -> String {
        """
        // The scene, in Core Animation code as on iOS. Render: swift run -c release \(p.name) -o out/\(p.name).mp4
        import StrataCLI  // StrataScript and the command line; re-exports Strata

        @main
        struct \(p.typeName): StrataScript {
            var title = \(swiftLiteral(p.name))

            var scene: Scene {
                let root = CALayer()
                root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
                root.backgroundColor = CGColor(red: 0.06, green: 0.09, blue: 0.13, alpha: 1)

                let label = CATextLayer()
                label.string = title
                label.font = "DejaVu Sans Bold"
                label.fontSize = 96
                label.alignmentMode = .center
                label.foregroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
                label.frame = CGRect(x: 0, y: 250, width: 1280, height: 130)
                root.addSublayer(label)

                let bar = CALayer()
                bar.bounds = CGRect(x: 0, y: 0, width: 320, height: 10)
                bar.position = CGPoint(x: 640, y: 420)
                bar.cornerRadius = 5
                bar.backgroundColor = CGColor(red: 1, green: 0.35, blue: 0.21, alpha: 1)
                root.addSublayer(bar)

                let fade = CABasicAnimation(keyPath: "opacity")
                fade.fromValue = 0
                fade.toValue = 1
                fade.duration = 0.8
                label.add(fade, forKey: "fade")

                let grow = CABasicAnimation(keyPath: "transform.scale.x")
                grow.fromValue = 0
                grow.toValue = 1
                grow.duration = 0.8
                grow.beginTime = 0.6
                grow.fillMode = .backwards
                grow.timingFunction = CAMediaTimingFunction(name: .easeOut)
                bar.add(grow, forKey: "grow")

                return Scene(rootLayer: root, size: CGSize(width: 1280, height: 720), frameRate: 30, duration: 3)
            }
        }

        """
    }

    static func templateScript(_ p: NewProject) -> String {
        """
        // The scene is the template Templates/\(p.name)/\(p.name).yaml, filled in with `title`.
        // Render: swift run -c release \(p.name) -o out/\(p.name).mp4
        //     or: strata render Templates/\(p.name) --set title=Hello -o out/\(p.name).mp4
        import Foundation
        import StrataCLI  // StrataScript and the command line; re-exports Strata

        @main
        struct \(p.typeName): StrataScript {
            var title = \(swiftLiteral(p.name))

            /// The template, found from this source file (the package's folder).
            static let templateFile = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Templates/\(p.name)/\(p.name).yaml")

            var scene: Scene {
                do {
                    return try Template(contentsOf: Self.templateFile).makeScene(TemplateArguments(text: ["title": title]))
                } catch {
                    // A template's errors name its file, line and field.
                    fatalError("\\(error)")
                }
            }
        }

        """
    }

    static func template(_ p: NewProject) -> String {
        """
        name: \(p.name)
        description: A title that slides in over a dark background, a subtitle and a growing bar.
        size: [1280, 720]
        fps: 30
        duration: 3
        background: "#101820"
        parameters:
          - {name: title, type: string, default: \(p.name), maxLength: 40, description: The big line}
          - {name: subtitle, type: string, default: Made with Strata, maxLength: 80}
          - {name: accent, type: color, default: "#FF5A36", description: The bar's colour}
        layers:
          - type: vstack
            spacing: 24
            layout: {center: true}
            children:
              - type: text
                string: "{{title}}"
                font: DejaVu Sans Bold
                fontSize: 96
                foregroundColor: "#FFFFFF"
                animations:
                  - {property: opacity, from: 0, to: 1, duration: 0.6}
                  - {property: transform.translation.y, from: 60, to: 0, duration: 0.6, timing: easeOutCubic}
              - type: text
                string: "{{subtitle}}"
                font: DejaVu Sans
                fontSize: 40
                foregroundColor: "#9AA5B1"
                animations:
                  - {property: opacity, from: 0, to: 1, duration: 0.6, delay: 0.5}
              - type: layer
                size: [320, 10]
                cornerRadius: 5
                backgroundColor: "{{accent}}"
                animations:
                  - {property: transform.scale.x, from: 0, to: 1, duration: 0.8, delay: 0.8, timing: easeOutCubic}

        """
    }
}
