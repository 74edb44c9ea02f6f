// A small HTTP/1.1 server over POSIX sockets, for the studio only: no package dependency (a
// script that depends on Strata builds no web framework). One thread per connection (at most
// `maximumConnections`), keep-alive, bounded request lines, headers and bodies, and never a
// crash on what a client sends: a malformed request is answered 400 with a JSON error naming
// what is wrong, then the connection is closed.
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A parsed request.
struct HTTPRequest {
    var method: String
    /// The path, percent-decoded, without the query.
    var path: String
    /// The query's fields, percent-decoded (the last of a repeated name wins).
    var query: [String: String]
    /// Header names in lower case.
    var headers: [String: String]
    var body: Data
    /// The request target as sent (path and query, still percent-encoded): what a proxy forwards.
    var target = ""
}

/// A response to write.
struct HTTPResponse {
    var status: Int
    var headers: [(String, String)] = []
    var body: Data = Data()
    /// When set, the connection is handed to this after the headers (a server-sent event
    /// stream); it returns when the stream ends.
    var stream: (@Sendable (HTTPConnection) -> Void)?

    init(status: Int, contentType: String, body: Data) {
        self.status = status
        self.body = body
        headers.append(("Content-Type", contentType))
    }

    /// A JSON response of `object`.
    static func json(_ object: Any, status: Int = 200) -> HTTPResponse {
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return HTTPResponse(status: 500, contentType: "application/json; charset=utf-8",
                                body: Data(#"{"error":"the answer holds a value JSON cannot encode (a number that is not finite)"}"#.utf8))
        }
        return HTTPResponse(status: status, contentType: "application/json; charset=utf-8", body: data)
    }

    /// A JSON error `{"error": message, "field": field}`.
    static func error(_ status: Int, _ message: String, field: String? = nil) -> HTTPResponse {
        var object: [String: Any] = ["error": message]
        if let field { object["field"] = field }
        return json(object, status: status)
    }
}

/// A client connection: a socket written whole, with a lock so that a stream and the server
/// (closing it on shutdown) do not interleave.
// @unchecked: `closed` is read and written only inside `lock.locked`, and every write to the
// socket happens there too; `fd` never changes.
final class HTTPConnection: @unchecked Sendable {
    let fd: Int32
    private let lock = StudioLock()
    private var closed = false

    init(fd: Int32) { self.fd = fd }

    /// Writes all of `data`; false when the peer is gone.
    @discardableResult
    func write(_ data: Data) -> Bool {
        lock.locked { writeLocked(data) }
    }

    private func writeLocked(_ data: Data) -> Bool {
        if closed { return false }
        return data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let n = send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n > 0 { offset += n; continue }
                if n < 0 && errno == EINTR { continue }
                return false
            }
            return true
        }
    }

    /// Whether the peer has closed its end (a stream's check between events).
    var peerClosed: Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 0) > 0 else { return false }
        if p.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return true }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    /// Shuts the socket down (a thread blocked reading it wakes); `close` happens once.
    func shutdownSocket() {
        lock.locked { if !closed { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) } }
    }

    func close() {
        lock.locked {
            if closed { return }
            closed = true
            _ = Glibc.close(fd)
        }
    }
}

/// Why a request could not be read.
struct HTTPParseError: Error {
    let status: Int
    let message: String
    let field: String?
}

/// The listening socket and its connection threads.
// @unchecked: `port`, `listener` and `acceptThread` are set by `start` before the accept thread
// runs and only read after; `connections` and `stopping` are touched only inside `lock.locked`.
final class HTTPServer: @unchecked Sendable {
    /// The longest request line and headers together.
    static let maximumHeaderBytes = 16 * 1024
    /// The largest request body.
    static let maximumBodyBytes = 1 << 20
    /// Connections served at once (more are answered 503 and closed).
    static let maximumConnections = 64
    /// Seconds an idle keep-alive connection is kept.
    static let idleTimeout: Int32 = 30_000

    let host: String
    private(set) var port: Int = 0
    private var listener: Int32 = -1
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let lock = StudioLock()
    private var connections: [ObjectIdentifier: HTTPConnection] = [:]
    private var stopping = false
    private var acceptThread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    init(host: String, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.host = host
        self.handler = handler
    }

    /// Binds `host:port` (port 0: a free port, then `port` is the one chosen) and starts accepting.
    func start(port requested: Int) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var info: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(requested), &hints, &info)
        guard rc == 0, let first = info else {
            throw StudioError("cannot resolve the address \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(info) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw StudioError("cannot open a socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw StudioError("cannot listen on \(host):\(requested): \(reason)")
        }
        guard listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw StudioError("cannot listen on \(host):\(requested): \(reason)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &storage) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        if Int32(storage.ss_family) == AF_INET6 {
            port = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) } }
        } else {
            port = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) } }
        }
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "studio-accept"
        thread.start()
        acceptThread = thread
    }

    /// Stops accepting, closes every connection and waits for the accept loop to end.
    func stop() {
        let (wasStopping, open) = lock.locked { () -> (Bool, [HTTPConnection]) in
            defer { stopping = true }
            return (stopping, Array(connections.values))
        }
        guard !wasStopping, listener >= 0 else { return }
        for c in open { c.shutdownSocket() }
        finished.wait()
    }

    private func acceptLoop() {
        while true {
            var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, 100)
            if lock.locked({ stopping }) { break }
            guard ready > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let connection = HTTPConnection(fd: client)
            let full = lock.locked { () -> Bool in
                let full = connections.count >= Self.maximumConnections
                if !full { connections[ObjectIdentifier(connection)] = connection }
                return full
            }
            if full {
                connection.write(Self.serialize(.error(503, "too many connections"), keepAlive: false, head: false))
                connection.close()
                continue
            }
            let thread = Thread { [self] in
                serve(connection)
                lock.locked { _ = connections.removeValue(forKey: ObjectIdentifier(connection)) }
                connection.close()
            }
            // Frames are rendered on this thread: the stack of a main thread, for deep layer trees.
            thread.stackSize = 8 << 20
            thread.start()
        }
        Glibc.close(listener)
        finished.signal()
    }

    /// Reads requests from a connection and answers them until it closes or asks to close.
    private func serve(_ connection: HTTPConnection) {
        var buffer = [UInt8]()
        while true {
            let request: HTTPRequest
            do {
                guard let r = try readRequest(connection.fd, buffer: &buffer) else { return }
                request = r
            } catch let e as HTTPParseError {
                connection.write(Self.serialize(.error(e.status, e.message, field: e.field), keepAlive: false, head: false))
                return
            } catch {
                return
            }
            var response = handler(request)
            // An error closes the connection: what follows a refused request is not trusted.
            let keepAlive = request.headers["connection"]?.lowercased() != "close" && response.stream == nil && response.status < 400
            if let stream = response.stream {
                response.headers.append(("Cache-Control", "no-store"))
                connection.write(Self.serialize(response, keepAlive: false, head: false, streaming: true))
                stream(connection)
                return
            }
            guard connection.write(Self.serialize(response, keepAlive: keepAlive, head: request.method == "HEAD")) else { return }
            if !keepAlive { return }
        }
    }

    /// Reads one request; nil when the peer closed (or stayed idle) before sending one.
    private func readRequest(_ fd: Int32, buffer: inout [UInt8]) throws -> HTTPRequest? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        func findEnd() -> Int? {
            guard buffer.count >= 4 else { return nil }
            for i in 0...(buffer.count - 4) where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
                return i
            }
            return nil
        }
        headerEnd = findEnd()
        while headerEnd == nil {
            if buffer.count > Self.maximumHeaderBytes {
                throw HTTPParseError(status: 431, message: "the request line and headers exceed \(Self.maximumHeaderBytes) bytes", field: "headers")
            }
            guard try receive(fd, into: &buffer, idle: buffer.isEmpty) else {
                if buffer.isEmpty { return nil }
                throw HTTPParseError(status: 400, message: "the request ended before its headers did", field: "headers")
            }
            headerEnd = findEnd()
        }
        let end = headerEnd!
        guard end <= Self.maximumHeaderBytes else {
            throw HTTPParseError(status: 431, message: "the request line and headers exceed \(Self.maximumHeaderBytes) bytes", field: "headers")
        }
        guard let head = String(bytes: buffer[0..<end], encoding: .utf8) else {
            throw HTTPParseError(status: 400, message: "the request line and headers must be UTF-8 text", field: "headers")
        }
        _ = terminator
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), !parts[0].isEmpty,
              parts[0].allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            throw HTTPParseError(status: 400, message: "expected a request line METHOD PATH HTTP/1.1, got \"\(lines[0].prefix(100))\"", field: "request-line")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw HTTPParseError(status: 400, message: "expected a header NAME: VALUE, got \"\(line.prefix(100))\"", field: "headers")
            }
            let name = line[..<colon].lowercased()
            guard name.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw HTTPParseError(status: 400, message: "the header name \"\(name.prefix(60))\" holds a space or a non-ASCII character", field: "headers")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "host", headers["host"] != nil {
                throw HTTPParseError(status: 400, message: "the Host header appears twice", field: "host")
            }
            headers[name] = value
        }
        if headers["transfer-encoding"] != nil {
            throw HTTPParseError(status: 411, message: "chunked request bodies are not accepted: send Content-Length", field: "transfer-encoding")
        }
        var length = 0
        if let text = headers["content-length"] {
            guard let n = Int(text), n >= 0 else {
                throw HTTPParseError(status: 400, message: "Content-Length \"\(text.prefix(40))\" is not a number of bytes", field: "content-length")
            }
            guard n <= Self.maximumBodyBytes else {
                throw HTTPParseError(status: 413, message: "the body of \(n) bytes exceeds \(Self.maximumBodyBytes) bytes", field: "content-length")
            }
            length = n
        }
        let bodyStart = end + 4
        while buffer.count - bodyStart < length {
            guard try receive(fd, into: &buffer, idle: false) else {
                throw HTTPParseError(status: 400, message: "the body ended before Content-Length bytes", field: "content-length")
            }
        }
        let body = Data(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        let target = String(parts[1])
        guard target.hasPrefix("/") else {
            throw HTTPParseError(status: 400, message: "the request target must be a path starting with /", field: "path")
        }
        let pathPart: Substring, queryPart: Substring?
        if let q = target.firstIndex(of: "?") {
            pathPart = target[..<q]; queryPart = target[target.index(after: q)...]
        } else {
            pathPart = Substring(target); queryPart = nil
        }
        guard let path = String(pathPart).removingPercentEncoding else {
            throw HTTPParseError(status: 400, message: "the path has a malformed percent escape", field: "path")
        }
        var query: [String: String] = [:]
        for pair in (queryPart ?? "").split(separator: "&") where !pair.isEmpty {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(kv[0]).replacingOccurrences(of: "+", with: " ")
            let rawValue = kv.count > 1 ? String(kv[1]).replacingOccurrences(of: "+", with: " ") : ""
            guard let name = rawName.removingPercentEncoding, let value = rawValue.removingPercentEncoding else {
                throw HTTPParseError(status: 400, message: "the query has a malformed percent escape", field: String(rawName.prefix(40)))
            }
            query[name] = value
        }
        return HTTPRequest(method: String(parts[0]), path: path, query: query, headers: headers, body: body, target: target)
    }

    /// Appends what the socket has; false at its end (or after the idle timeout when `idle`).
    private func receive(_ fd: Int32, into buffer: inout [UInt8], idle: Bool) throws -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&p, 1, idle ? Self.idleTimeout : 10_000)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else {
                if idle { return false }
                throw HTTPParseError(status: 408, message: "the request was not sent in time", field: nil)
            }
            break
        }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 202: "Accepted"
        case 204: "No Content"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    static func serialize(_ r: HTTPResponse, keepAlive: Bool, head: Bool, streaming: Bool = false) -> Data {
        var text = "HTTP/1.1 \(r.status) \(reason(r.status))\r\n"
        for (k, v) in r.headers { text += "\(k): \(v)\r\n" }
        if !streaming { text += "Content-Length: \(r.body.count)\r\n" }
        text += "X-Content-Type-Options: nosniff\r\n"
        text += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        var data = Data(text.utf8)
        if !head && !streaming { data.append(r.body) }
        return data
    }
}

/// An error of the studio (a message for the terminal and the page).
public struct StudioError: Error, CustomStringConvertible, Sendable {
    /// The message.
    public let description: String
    /// An error saying `message`.
    public init(_ message: String) { description = message }
}
