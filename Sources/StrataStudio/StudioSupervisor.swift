// `strata preview FOLDER` for a Swift package holding a `StrataScript` executable. The user's
// code cannot be loaded into this process, so it runs in the executable `swift build` makes:
// the supervisor builds it, starts its own `preview` command on a loopback port of its own (a
// child in a process group of its own, with this session's token), and serves the page's
// address itself — the same checks as the studio (Host, Origin, token), then every request
// forwarded to the child, and an event stream of its own that relays the child's events and
// adds the build's. Saving a source rebuilds (incrementally); while it builds and when it
// fails, the running child keeps serving the last good scene; after a good build a new child
// is started, given the page's parameter values and put in place before the old one is
// stopped, so the page reloads with its playhead where it was.
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A Swift package to preview, and how to build it.
public struct SwiftPackagePreview: Sendable {
    /// The package's folder (holding Package.swift).
    public var folder: URL
    /// The executable product to run (nil: the package's only executable product).
    public var product: String?
    /// The `swift` executable (a name found on PATH or a path); `STRATA_SWIFT` overrides it
    /// on the command line.
    public var swift = "swift"
    /// `debug` or `release`.
    public var buildConfiguration = "debug"
    /// Arguments given to the script's `preview` besides its port, host and output folder
    /// (e.g. `--scale 0.5`).
    public var previewArguments: [String] = []

    /// The package in `folder`, running `product` (nil: its only executable product).
    public init(folder: URL, product: String? = nil) {
        self.folder = folder
        self.product = product
    }

    /// Whether `path` is a Swift package folder.
    public static func isPackage(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
            && FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("Package.swift"))
    }
}

/// A compile error of a build: where and what.
public struct BuildDiagnostic: Equatable, Sendable {
    /// The source file's path, as the compiler printed it.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int
    /// The compiler's message.
    public var message: String

    /// The errors in a build's output (`FILE:LINE:COL: error: MESSAGE` lines), each once.
    public static func errors(in output: [String]) -> [BuildDiagnostic] {
        var result: [BuildDiagnostic] = []
        for raw in output {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard let marker = line.range(of: ": error: ") else { continue }
            let location = line[..<marker.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
            guard location.count >= 3, let col = Int(location[location.count - 1]), let row = Int(location[location.count - 2]) else { continue }
            let d = BuildDiagnostic(file: location.dropLast(2).joined(separator: ":"), line: row, column: col,
                                    message: String(line[marker.upperBound...]))
            if !result.contains(d) { result.append(d) }
        }
        return result
    }
}

// @unchecked: the mutable state is read and written only inside `lock.locked`; `server` and
// `watcher` are set once by `start`.
/// `strata preview` of a Swift package: builds it, runs its script's studio, rebuilds on change.
public final class StudioSupervisor: @unchecked Sendable {
    /// How it serves (host, port, watch interval, …); the script's studio gets the same.
    public let configuration: StudioConfiguration
    /// The package built and how.
    public let package: SwiftPackagePreview
    /// The product run.
    public let product: String
    /// The session's token (the children get it too).
    public let token: String

    /// A running studio of the built script.
    private final class Child: Sendable {
        let process: ChildProcess
        let port: Int
        init(process: ChildProcess, port: Int) {
            self.process = process
            self.port = port
        }
    }

    private let lock = StudioLock()
    private var scene: Child?
    /// Replaced children about to be stopped.
    private var retiring: [Child] = []
    private var executable = ""
    /// The newest generation the page has been told of.
    private var generation = 0
    /// The page's parameter values, given again to each new child.
    private var overrides: [String: Any] = [:]
    private var lastError: [String: Any]?
    private var stopping = false
    private var build: ChildProcess?
    private var server: HTTPServer?
    private let events = StudioEventStream()
    private var watcher: StudioFileWatcher?

    /// Finds the product to run (asking `swift package describe` when none is given).
    public init(package: SwiftPackagePreview, configuration: StudioConfiguration) throws {
        self.package = package
        self.configuration = configuration
        token = configuration.token ?? Studio.randomToken()
        if let name = package.product {
            product = name
        } else {
            product = try Self.onlyExecutable(package)
        }
    }

    /// The port served (after `start`).
    public var port: Int { server?.port ?? 0 }

    /// The page's address.
    public var url: String {
        let h = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(h):\(port)/"
    }

    /// The process id of the script's running studio (nil when none runs).
    public var childProcessID: pid_t? { lock.locked { scene?.process.exitStatus == nil ? scene?.process.pid : nil } }

    /// Builds the product, starts its studio and serves; throws the compile errors of a first
    /// build that fails (there is no last good scene yet).
    public func start() throws {
        let started = Date()
        configuration.log("studio: building \(product) (swift build --product \(product))…")
        let (ok, output) = runBuild()
        let stoppedEarly = StudioError("stopped before the first build of \(product) was served")
        if lock.locked({ stopping }) { throw stoppedEarly }
        guard ok else { throw StudioError(Self.failureMessage(product: product, output: output, folder: package.folder)) }
        configuration.log("studio: built \(product) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        let bin = try binPath()
        executable = URL(fileURLWithPath: bin).appendingPathComponent(product).path
        let first = try startScene(firstGeneration: 0)
        let stopped = lock.locked { () -> Bool in
            if !stopping { scene = first }
            return stopping
        }
        if stopped {
            first.process.terminate()
            throw stoppedEarly
        }
        let server = HTTPServer(host: configuration.host) { [self] request in respond(request) }
        do {
            try server.start(port: configuration.port)
        } catch {
            first.process.terminate()
            throw error
        }
        self.server = server
        let watcher = StudioFileWatcher(interval: configuration.watchInterval, afterChange: .keepWhatWasSeen,
                                        files: { [self] in watchedFiles() }, changed: { [self] in rebuild() })
        watcher.start()
        self.watcher = watcher
    }

    /// Stops serving, the build under way and the script's studio (its whole process group).
    public func stop() {
        let (already, running, building) = lock.locked { () -> (Bool, [Child], ChildProcess?) in
            defer { stopping = true }
            return (stopping, (scene.map { [$0] } ?? []) + retiring, build)
        }
        guard !already else { return }
        building?.terminate(grace: 1)
        for child in running { child.process.terminate() }
        events.close()
        server?.stop()
        watcher?.stop()
    }

    // MARK: Building

    private var buildArguments: [String] {
        ["build", "--package-path", package.folder.path, "--configuration", package.buildConfiguration]
    }

    /// Runs `swift build --product`; each line goes to the terminal and, as progress, to the page.
    private func runBuild() -> (ok: Bool, output: [String]) {
        let collected = StudioLockedLines()
        let process: ChildProcess
        do {
            process = try ChildProcess(executable: package.swift, arguments: buildArguments + ["--product", product],
                                       environment: ProcessInfo.processInfo.environment, directory: package.folder,
                                       mergeError: true) { [self] line, _ in
                collected.append(line)
                configuration.log(line)
                if line.hasPrefix("[") || line.hasPrefix("Compiling") || line.hasPrefix("Building") || line.hasPrefix("Linking") {
                    broadcast("build", ["state": "progress", "product": product, "line": String(line.prefix(300))])
                }
            }
        } catch {
            return (false, ["\(error)"])
        }
        let cancelled = lock.locked { () -> Bool in
            if !stopping { build = process }
            return stopping
        }
        if cancelled { process.terminate(grace: 1) }
        let status = process.wait()
        process.waitForOutput(timeout: 5)
        process.terminate(grace: 0)
        lock.locked { if build === process { build = nil } }
        return (status == 0, collected.lines)
    }

    private func binPath() throws -> String {
        let collected = StudioLockedLines()
        let process = try ChildProcess(executable: package.swift, arguments: buildArguments + ["--show-bin-path"],
                                       environment: ProcessInfo.processInfo.environment, directory: package.folder) { line, error in
            if !error { collected.append(line) }
        }
        let status = process.wait()
        process.waitForOutput(timeout: 5)
        guard status == 0, let path = collected.lines.last(where: { $0.hasPrefix("/") }) else {
            throw StudioError("\(package.swift) build --show-bin-path failed (status \(status ?? -1)): \(collected.lines.suffix(5).joined(separator: "\n"))")
        }
        return path
    }

    /// The package's one executable product, from `swift package describe --type json`.
    private static func onlyExecutable(_ package: SwiftPackagePreview) throws -> String {
        let collected = StudioLockedLines()
        let errors = StudioLockedLines()
        let process = try ChildProcess(executable: package.swift,
                                       arguments: ["package", "--package-path", package.folder.path, "describe", "--type", "json"],
                                       environment: ProcessInfo.processInfo.environment, directory: package.folder) { line, error in
            if error { errors.append(line) } else { collected.append(line) }
        }
        let status = process.wait()
        process.waitForOutput(timeout: 5)
        guard status == 0, let object = try? JSONSerialization.jsonObject(with: Data(collected.lines.joined(separator: "\n").utf8)) as? [String: Any] else {
            throw StudioError("\(package.folder.path): cannot read the package (swift package describe: \(errors.lines.suffix(5).joined(separator: " ")))")
        }
        let products = (object["products"] as? [[String: Any]]) ?? []
        let executables = products.compactMap { p -> String? in
            guard let type = p["type"] as? [String: Any], type.keys.contains("executable") else { return nil }
            return p["name"] as? String
        }.sorted()
        switch executables.count {
        case 0: throw StudioError("\(package.folder.path): the package has no executable product (a StrataScript with @main); `strata new NAME` makes one")
        case 1: return executables[0]
        default: throw StudioError("\(package.folder.path): the package has several executable products (\(executables.joined(separator: ", "))): choose one with --product NAME")
        }
    }

    static func failureMessage(product: String, output: [String], folder: URL) -> String {
        let errors = BuildDiagnostic.errors(in: output)
        guard !errors.isEmpty else {
            return "swift build --product \(product) failed:\n" + output.suffix(20).joined(separator: "\n")
        }
        let base = folder.standardizedFileURL.path + "/"
        return "swift build --product \(product) failed:\n" + errors.prefix(20).map { e in
            let file = e.file.hasPrefix(base) ? String(e.file.dropFirst(base.count)) : e.file
            return "\(file):\(e.line):\(e.column): error: \(e.message)"
        }.joined(separator: "\n")
    }

    // MARK: The script's studio

    /// Starts the built executable's `preview` on a free loopback port and waits for its address.
    private func startScene(firstGeneration: Int) throws -> Child {
        var environment = ProcessInfo.processInfo.environment
        environment["STRATA_STUDIO_TOKEN"] = token
        environment["STRATA_STUDIO_GENERATION"] = String(firstGeneration)
        environment["STRATA_STUDIO_SUPERVISED"] = "1"
        let arguments = ["preview", "--port", "0", "--host", "127.0.0.1", "--output-folder", configuration.outputFolder.path] + package.previewArguments
        let ready = DispatchSemaphore(value: 0)
        let found = StudioLockedLines()
        let tail = StudioLockedLines()
        let process = try ChildProcess(executable: executable, arguments: arguments, environment: environment,
                                       directory: package.folder) { [self] line, error in
            if !error, found.lines.isEmpty, let r = line.range(of: "Strata Studio: http://") {
                found.append(String(line[r.upperBound...]))
                ready.signal()
                return
            }
            if !error, line.hasPrefix("Strata Studio stopped") { return }
            tail.append(line)
            configuration.log(line)
        }
        process.whenExited { _ in ready.signal() }
        _ = ready.wait(timeout: .now() + 120)
        guard let address = found.lines.first, let colon = address.lastIndex(of: ":"),
              let port = Int(address[address.index(after: colon)...].prefix { $0.isNumber }), process.exitStatus == nil else {
            process.terminate(grace: 1)
            process.waitForOutput(timeout: 2)
            let status = process.exitStatus.map { " (status \($0))" } ?? ""
            throw StudioError("\(product) preview did not start\(status): \(tail.lines.suffix(15).joined(separator: "\n"))")
        }
        let child = Child(process: process, port: port)
        process.whenExited { [self] status in exited(child, status: status, tail: tail) }
        let relay = Thread { [self] in relayEvents(of: child) }
        relay.name = "studio-relay"
        relay.start()
        return child
    }

    /// The running child ended without being asked to: the page is told (with the end of its
    /// output: a crash names its file and line), and frames are refused until the next build.
    private func exited(_ ended: Child, status: Int32, tail: StudioLockedLines) {
        let current = lock.locked { !stopping && scene === ended }
        guard current else { return }
        let message = "\(product) stopped (status \(status)); save a source to build and start it again:\n"
            + tail.lines.suffix(15).joined(separator: "\n")
        lock.locked { lastError = ["message": message] }
        configuration.log("studio: \(message)")
        broadcast("error", ["message": message])
    }

    /// Relays the child's reload, error and parameter events to the page while it is current.
    private func relayEvents(of child: Child) {
        guard let fd = try? Self.connect(port: child.port) else { return }
        defer { Glibc.close(fd) }
        let request = "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(child.port)\r\nAccept: text/event-stream\r\n\r\n"
        guard Self.sendAll(fd, Data(request.utf8)) else { return }
        var buffer = ""
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, 500)
            if lock.locked({ stopping }) { return }
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { return }
            buffer += String(decoding: chunk[0..<n], as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            while let end = buffer.range(of: "\n\n") {
                let block = String(buffer[..<end.lowerBound])
                buffer.removeSubrange(..<end.upperBound)
                var name = "", data = ""
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                }
                guard ["reload", "error", "parameters"].contains(name),
                      let object = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] else { continue }
                let current = lock.locked { () -> Bool in
                    guard scene === child else { return false }
                    if let g = object["generation"] as? Int { generation = max(generation, g) }
                    if name == "error" { lastError = object } else if name == "reload" { lastError = nil }
                    return true
                }
                if current { broadcast(name, object) }
            }
        }
    }

    // MARK: Hot rebuild

    /// The files whose change rebuilds: Package.swift and everything under Sources/ (files and
    /// folders, at most 5000, hidden ones left out).
    private func watchedFiles() -> [URL] {
        var files = [package.folder.appendingPathComponent("Package.swift"), package.folder.appendingPathComponent("Sources", isDirectory: true)]
        let keys: [URLResourceKey] = [.isRegularFileKey, .isDirectoryKey]
        if let walker = FileManager.default.enumerator(at: package.folder.appendingPathComponent("Sources", isDirectory: true),
                                                        includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]) {
            for case let url as URL in walker {
                guard files.count < 5000 else { break }
                files.append(url)
            }
        }
        return files
    }

    /// Builds; on success starts the new scene's studio and puts it in place of the old one.
    func rebuild() {
        let started = Date()
        configuration.log("studio: building \(product)…")
        broadcast("build", ["state": "started", "product": product])
        let (ok, output) = runBuild()
        if lock.locked({ stopping }) { return }
        guard ok else {
            let errors = BuildDiagnostic.errors(in: output)
            let message = Self.failureMessage(product: product, output: output, folder: package.folder)
            let object: [String: Any] = ["message": message, "build": true,
                                         "errors": errors.map { ["file": $0.file, "line": $0.line, "column": $0.column, "message": $0.message] as [String: Any] }]
            lock.locked { lastError = object }
            configuration.log("studio: error: \(message)")
            broadcast("error", object)
            return
        }
        let seconds = Date().timeIntervalSince(started)
        configuration.log("studio: built \(product) in \(String(format: "%.1f", seconds)) s")
        broadcast("build", ["state": "built", "product": product, "seconds": seconds])
        let (base, values) = lock.locked { (generation + 1, overrides) }
        let fresh: Child
        do {
            fresh = try startScene(firstGeneration: base)
        } catch {
            let message = "\(error)"
            lock.locked { lastError = ["message": message] }
            configuration.log("studio: error: \(message)")
            broadcast("error", ["message": message])
            return
        }
        var newGeneration = base
        if !values.isEmpty, let body = try? JSONSerialization.data(withJSONObject: values) {
            // The page's values again; refused ones (the parameters changed) are dropped.
            let r = forward(method: "POST", target: "/api/parameters", contentType: "application/json", body: body, to: fresh.port)
            if r.status == 200, let object = (try? JSONSerialization.jsonObject(with: r.body)) as? [String: Any], let g = object["generation"] as? Int {
                newGeneration = g
            } else {
                configuration.log("studio: the parameter values were refused by the new build and dropped: \(String(decoding: r.body.prefix(300), as: UTF8.self))")
                lock.locked { overrides = [:] }
            }
        }
        let (old, stopped) = lock.locked { () -> (Child?, Bool) in
            guard !stopping else { return (nil, true) }
            defer { scene = fresh }
            generation = max(generation, newGeneration)
            newGeneration = generation
            lastError = nil
            return (scene, false)
        }
        if stopped {
            fresh.process.terminate()
            return
        }
        broadcast("reload", ["generation": newGeneration, "build": true])
        configuration.log("studio: reloaded \(product)")
        guard let old else { return }
        // Stopped a moment later, so that requests already forwarded to it are answered.
        lock.locked { retiring.append(old) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { [self] in
            old.process.terminate()
            lock.locked { retiring.removeAll { $0 === old } }
        }
    }

    // MARK: Serving

    func respond(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = StudioRequestGuard(host: configuration.host, port: port, token: token).refusal(of: request, url: url) {
            return refusal
        }
        if request.path == "/api/events" {
            guard request.method == "GET" else { return .error(405, "\(request.method) is not allowed on /api/events", field: "method") }
            return eventStream()
        }
        let (current, error) = lock.locked { (scene, lastError) }
        guard let current, current.process.exitStatus == nil else {
            return .error(503, (error?["message"] as? String) ?? "\(product) is not running", field: nil)
        }
        let response = forward(method: request.method, target: request.target, contentType: request.headers["content-type"],
                               body: request.body, to: current.port)
        if request.method == "POST", request.path == "/api/parameters", response.status == 200,
           let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] {
            lock.locked {
                for (k, v) in object { if v is NSNull { overrides.removeValue(forKey: k) } else { overrides[k] = v } }
            }
        }
        return response
    }

    /// One request to the child (on a connection of its own), its answer as it came.
    private func forward(method: String, target: String, contentType: String?, body: Data, to childPort: Int) -> HTTPResponse {
        guard let fd = try? Self.connect(port: childPort) else {
            return .error(503, "\(product)'s studio does not answer")
        }
        defer { Glibc.close(fd) }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(childPort)\r\nConnection: close\r\nX-Strata-Token: \(token)\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        guard Self.sendAll(fd, Data(head.utf8) + body) else { return .error(503, "\(product)'s studio does not answer") }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        var expected: Int?
        var headEnd: Int?
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, 300_000)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return .error(504, "\(product)'s studio did not answer in time") }
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if headEnd == nil, let r = Self.headEnd(bytes) {
                headEnd = r
                let text = String(decoding: bytes[0..<r], as: UTF8.self).lowercased()
                if let line = text.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }) {
                    expected = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
                }
            }
            if let h = headEnd, let expected, bytes.count >= h + 4 + expected { break }
        }
        guard let h = headEnd else { return .error(502, "\(product)'s studio sent no answer") }
        let lines = String(decoding: bytes[0..<h], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 502
        var response = HTTPResponse(status: status, contentType: "application/octet-stream", body: Data(bytes[(h + 4)...]))
        response.headers = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            if ["content-length", "connection", "x-content-type-options", "transfer-encoding"].contains(name.lowercased()) { continue }
            response.headers.append((name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        if let expected, response.body.count > expected { response.body = response.body.prefix(expected) }
        return response
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { return i }
        return nil
    }

    private static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw StudioError("cannot open a socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            Glibc.close(fd)
            throw StudioError("cannot connect to 127.0.0.1:\(port)")
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    private static func sendAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
    }

    // MARK: Events

    private func eventStream() -> HTTPResponse {
        events.response { [self] in
            let (gen, error) = lock.locked { (generation, lastError) }
            var hello: [String: Any] = ["generation": gen]
            if let message = error?["message"] { hello["error"] = message }
            return hello
        }
    }

    private func broadcast(_ name: String, _ object: [String: Any]) { events.broadcast(name, object) }
}

/// Lines collected from another thread.
final class StudioLockedLines: Sendable {
    private let storage = Mutex([String]())
    func append(_ line: String) { storage.withCheckedLock { $0.append(line) } }
    var lines: [String] { storage.withCheckedLock { $0 } }
}
