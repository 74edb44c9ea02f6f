// swift-tools-version: 6.1
// libFuzzer targets for Strata's parsers and decoders, kept out of the main package: they are
// built with `-sanitize=fuzzer,address` (libFuzzer supplies `main`), so only `scripts/fuzz.sh`
// builds them, into `.build-fuzz`. One executable holds every target; STRATA_FUZZ_TARGET picks one.
import PackageDescription
import Foundation

// The main package is this folder's parent; a path dependency's identity is its folder's name.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "StrataFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "StrataFuzz", dependencies: [
            .product(name: "Strata", package: root.lastPathComponent.lowercased()),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
