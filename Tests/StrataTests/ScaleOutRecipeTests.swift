// The scale-out recipes as documented: the Kubernetes manifests in examples/kubernetes are read
// with Yams and checked against docs/scale-out.md (the README links it) (image, the strata arguments each pod runs) and the
// Dockerfile (the non-root uid); the pod's shell command is run for every completion index with a
// stand-in `strata` that records its arguments, so the frame ranges it asks for are the README's.
// The Slurm batch script gets the same treatment for SLURM_ARRAY_TASK_ID. (Running them on real
// engines is scripts/slurm-check.sh's and scripts/docker-check.sh's job.)
import Foundation
import XCTest
import Yams

final class ScaleOutRecipeTests: XCTestCase {
    private var repository: URL {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir
    }

    private func yaml(_ path: String) throws -> [String: Any] {
        let text = try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
        return try XCTUnwrap(try Yams.load(yaml: text) as? [String: Any], "\(path) is one YAML mapping")
    }

    private func value(_ object: Any?, _ path: String) -> Any? {
        path.split(separator: ".").reduce(object) { current, key in
            if let index = Int(key) { return (current as? [Any]).flatMap { index < $0.count ? $0[index] : nil } }
            return (current as? [String: Any])?[String(key)]
        }
    }

    /// The README's line for the pods: "strata render … --frames A..B -o /work/out/chunk-NNNNN.mp4".
    private func documentedPodCommand() throws -> [String] {
        let readme = try String(contentsOf: repository.appendingPathComponent("docs/scale-out.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.range(of: "**Kubernetes**").map { String(readme[$0.upperBound...]) })
        let line = try XCTUnwrap(section.split(separator: "\n").first { $0.hasPrefix("strata render") && $0.contains("--frames A..B") })
        return line.split(separator: " ").map(String.init)
    }

    /// Runs `script` under /bin/sh with `environment` and a stand-in `strata` that prints its arguments.
    private func runWithStandIn(_ script: String, environment: [String: String]) throws -> [String] {
        let dir = try temporaryFolder()
        let standIn = dir.appendingPathComponent("strata")
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n".write(to: standIn, atomically: true, encoding: .utf8)
        chmod(standIn.path, 0o755)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        p.environment = environment.merging(["PATH": dir.path + ":/usr/bin:/bin"]) { $1 }
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testKubernetesIndexedJobMatchesTheREADME() throws {
        let job = try yaml("examples/kubernetes/render-chunks-job.yaml")
        XCTAssertEqual(job["apiVersion"] as? String, "batch/v1")
        XCTAssertEqual(job["kind"] as? String, "Job")
        XCTAssertEqual(value(job, "spec.completionMode") as? String, "Indexed")
        let completions = try XCTUnwrap(value(job, "spec.completions") as? Int)
        XCTAssertLessThanOrEqual(try XCTUnwrap(value(job, "spec.parallelism") as? Int), completions)
        XCTAssertEqual(value(job, "spec.template.spec.restartPolicy") as? String, "Never")

        // The image and user the README and the Dockerfile name.
        let container = try XCTUnwrap(value(job, "spec.template.spec.containers.0") as? [String: Any])
        let image = try XCTUnwrap(container["image"] as? String)
        XCTAssertEqual(image, "strata:latest")
        let readme = try String(contentsOf: repository.appendingPathComponent("docs/scale-out.md"), encoding: .utf8)
        XCTAssertTrue(readme.contains("docker build -t strata ."))
        XCTAssertTrue(readme.contains("`\(image)`"), "the README names the image \(image)")
        let dockerfile = try String(contentsOf: repository.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let uid = try XCTUnwrap(value(job, "spec.template.spec.securityContext.runAsUser") as? Int)
        XCTAssertEqual(value(job, "spec.template.spec.securityContext.runAsNonRoot") as? Bool, true)
        XCTAssertTrue(dockerfile.contains("useradd --uid \(uid) "), "the image's user has uid \(uid)")
        XCTAssertTrue(dockerfile.contains("ENTRYPOINT [\"strata\"]"))

        // The shared output volume, and the concat Job on the same claim.
        XCTAssertEqual(value(container, "volumeMounts.0.mountPath") as? String, "/work/out")
        let claim = try XCTUnwrap(value(job, "spec.template.spec.volumes.0.persistentVolumeClaim.claimName") as? String)
        let pvc = try yaml("examples/kubernetes/output-pvc.yaml")
        XCTAssertEqual(pvc["kind"] as? String, "PersistentVolumeClaim")
        XCTAssertEqual(value(pvc, "metadata.name") as? String, claim)
        XCTAssertEqual(value(pvc, "spec.accessModes.0") as? String, "ReadWriteMany")
        let concat = try yaml("examples/kubernetes/concat-job.yaml")
        XCTAssertEqual(value(concat, "spec.template.spec.volumes.0.persistentVolumeClaim.claimName") as? String, claim)
        XCTAssertEqual(value(concat, "spec.template.spec.containers.0.image") as? String, image)
        let concatScript = try XCTUnwrap(value(concat, "spec.template.spec.containers.0.args.0") as? String)
        XCTAssertTrue(concatScript.contains("strata concat /work/out/chunk-*.mp4 -o /work/out/video.mp4"), concatScript)

        // Every pod asks for the README's arguments with its own chunk; together they cover the video.
        var environment: [String: String] = [:]
        for entry in container["env"] as? [[String: Any]] ?? [] {
            if let name = entry["name"] as? String, let v = entry["value"] as? String { environment[name] = v }
        }
        let chunk = try XCTUnwrap(Int(environment["CHUNK"] ?? ""))
        let frames = try XCTUnwrap(Int(environment["FRAMES"] ?? ""))
        XCTAssertEqual(completions, (frames + chunk - 1) / chunk)
        XCTAssertEqual(container["command"] as? [String], ["/bin/sh", "-c"])
        let script = try XCTUnwrap(value(container, "args.0") as? String)
        let documented = try documentedPodCommand()
        var covered: [Int] = []
        for index in 0..<completions {
            environment["JOB_COMPLETION_INDEX"] = "\(index)"
            let arguments = try runWithStandIn(script, environment: environment)
            let a = index * chunk, b = min(a + chunk - 1, frames - 1)
            let expected = documented.dropFirst().map {
                $0.replacingOccurrences(of: "A..B", with: "\(a)..\(b)")
                    .replacingOccurrences(of: "NNNNN", with: String(format: "%05d", index))
            }
            XCTAssertEqual(arguments, Array(expected), "pod \(index)")
            covered += Array(a...b)
        }
        XCTAssertEqual(covered, Array(0..<frames))
        // The documented arguments are the strata CLI's: --duration × --fps frames, interval = chunk.
        let duration = try XCTUnwrap(documented.firstIndex(of: "--duration").flatMap { Double(documented[$0 + 1]) })
        let fps = try XCTUnwrap(documented.firstIndex(of: "--fps").flatMap { Double(documented[$0 + 1]) })
        XCTAssertEqual(Int(duration * fps), frames)
        XCTAssertEqual(documented.firstIndex(of: "--keyframe-interval").map { documented[$0 + 1] }, "\(chunk)")
    }

    func testKubernetesBatchShardsCoverTheRowsAsTheREADMESays() throws {
        let job = try yaml("examples/kubernetes/batch-shards-job.yaml")
        let chunks = try yaml("examples/kubernetes/render-chunks-job.yaml")
        XCTAssertEqual(value(job, "spec.completionMode") as? String, "Indexed")
        let completions = try XCTUnwrap(value(job, "spec.completions") as? Int)
        XCTAssertEqual(value(job, "spec.template.spec.restartPolicy") as? String, "Never")
        // Same image, user and output claim as the chunk Job.
        for key in ["spec.template.spec.containers.0.image", "spec.template.spec.securityContext.runAsUser",
                    "spec.template.spec.volumes.1.persistentVolumeClaim.claimName"] {
            let other = key.replacingOccurrences(of: "volumes.1", with: "volumes.0")
            XCTAssertEqual("\(value(job, key) ?? "none")", "\(value(chunks, other) ?? "none")", key)
        }
        XCTAssertEqual(value(job, "spec.template.spec.volumes.0.configMap.name") as? String, "strata-rows")
        let container = try XCTUnwrap(value(job, "spec.template.spec.containers.0") as? [String: Any])
        XCTAssertEqual(value(container, "volumeMounts.0.mountPath") as? String, "/work/in")
        XCTAssertEqual(value(container, "volumeMounts.1.mountPath") as? String, "/work/out")
        var environment: [String: String] = [:]
        for entry in container["env"] as? [[String: Any]] ?? [] {
            if let name = entry["name"] as? String, let v = entry["value"] as? String { environment[name] = v }
        }
        XCTAssertEqual(environment["SHARDS"], "\(completions)")

        // The README's line, with I the pod's index: what every pod runs (shards 0 … N − 1, 0-based
        // as `strata batch --shard` counts them).
        let readme = try String(contentsOf: repository.appendingPathComponent("docs/scale-out.md"), encoding: .utf8)
        let line = try XCTUnwrap(readme.split(separator: "\n").first { $0.hasPrefix("strata batch lower-third") && $0.contains("--shard I/") })
        let documented = line.replacingOccurrences(of: "'", with: "").split(separator: " ").map(String.init)
        XCTAssertTrue(documented.contains("I/\(completions)"), "the README documents --shard I/\(completions)")
        let script = try XCTUnwrap(value(container, "args.0") as? String)
        var shards: [String] = []
        for index in 0..<completions {
            environment["JOB_COMPLETION_INDEX"] = "\(index)"
            let arguments = try runWithStandIn(script, environment: environment)
            let expected = documented.dropFirst().map {
                $0.replacingOccurrences(of: "I/", with: "\(index)/").replacingOccurrences(of: "report-I.", with: "report-\(index).")
            }
            XCTAssertEqual(arguments, Array(expected), "pod \(index)")
            shards.append(arguments[arguments.firstIndex(of: "--shard")! + 1])
        }
        XCTAssertEqual(shards, (0..<completions).map { "\($0)/\(completions)" })
    }

    func testSlurmArrayTasksCoverTheFrames() throws {
        let script = repository.appendingPathComponent("examples/slurm/render-chunks.sbatch").path
        var covered: [Int] = []
        for task in 0..<4 {
            let arguments = try runWithStandIn("exec bash \(script)", environment: [
                "STRATA": "strata", "OUT": "/shared/out", "FRAMES": "70", "CHUNK": "20",
                "RENDER_ARGS": "--duration 7 --fps 10", "SLURM_ARRAY_TASK_ID": "\(task)",
            ])
            let a = task * 20, b = min(a + 19, 69)
            XCTAssertEqual(arguments, ["render", "--duration", "7", "--fps", "10", "--keyframe-interval", "20", "--workers", "1",
                                       "--frames", "\(a)..\(b)", "-o", String(format: "/shared/out/chunk-%05d.mp4", task)])
            covered += Array(a...b)
        }
        XCTAssertEqual(covered, Array(0..<70))
    }
}
