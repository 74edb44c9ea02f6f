// A raw-socket HTTP/1.1 client for the studio's tests: one request a connection
// (`Connection: close`), any Host and headers (a rebinding attack's), and a server-sent event
// reader.
import Foundation
import StrataStudio
#if canImport(Glibc)
import Glibc
#endif

/// What the client can talk to: a studio, or a supervisor of a script's studio.
protocol TestServer { var port: Int { get } }
extension Studio: TestServer {}
extension StudioSupervisor: TestServer {}

enum HTTPTestClient {
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func connect(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { close(fd); throw Failure(description: "cannot connect to port \(port)") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func sendAll(_ fd: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// Sends `request` as it is and reads the whole response (the server closes after it).
    static func raw(_ studio: any TestServer, _ request: String, body: Data = Data()) throws -> Response {
        let fd = try connect(studio.port)
        defer { close(fd) }
        sendAll(fd, Data(request.utf8) + body)
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return try parse(Data(bytes))
    }

    static func parse(_ data: Data) throws -> Response {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no response head in \(data.count) bytes") }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        if let length = headers["content-length"].flatMap(Int.init), body.count > length { body = body.prefix(length) }
        return Response(status: status, headers: headers, body: body)
    }

    static func get(_ studio: any TestServer, _ path: String, host: String? = nil, extra: [String] = []) throws -> Response {
        let lines = ["GET \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(studio.port)")", "Connection: close"] + extra
        return try raw(studio, lines.joined(separator: "\r\n") + "\r\n\r\n")
    }

    static func post(_ studio: any TestServer, _ path: String, json: String, token: String?) throws -> Response {
        let body = Data(json.utf8)
        var lines = ["POST \(path) HTTP/1.1", "Host: 127.0.0.1:\(studio.port)", "Connection: close",
                     "Content-Type: application/json", "Content-Length: \(body.count)", "Origin: http://127.0.0.1:\(studio.port)"]
        if let token { lines.append("X-Strata-Token: \(token)") }
        return try raw(studio, lines.joined(separator: "\r\n") + "\r\n\r\n", body: body)
    }

    /// The session token, read from the page as a browser gets it.
    static func token(_ studio: any TestServer) throws -> String {
        let page = try get(studio, "/").text
        guard let r = page.range(of: #"<meta name="strata-token" content=""#) else { throw Failure(description: "no token in the page") }
        return String(page[r.upperBound...].prefix { $0 != "\"" })
    }

    /// `GET /api/events`, read an event at a time.
    final class EventStream {
        let fd: Int32
        private var buffer = ""

        init(_ studio: any TestServer) throws {
            fd = try HTTPTestClient.connect(studio.port)
            sendAll(fd, Data("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(studio.port)\r\nAccept: text/event-stream\r\n\r\n".utf8))
        }

        deinit { close(fd) }

        /// The next event block that names an event (comments and the head skipped).
        func next(timeout: Double) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                while let r = buffer.range(of: "\n\n") {
                    let block = String(buffer[..<r.lowerBound])
                    buffer.removeSubrange(..<r.upperBound)
                    if block.contains("event: ") { return block }
                }
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 100) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { throw Failure(description: "the event stream closed") }
                buffer += String(decoding: chunk[0..<n], as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            }
            throw Failure(description: "no event within \(timeout) s (buffer: \(buffer.suffix(300)))")
        }
    }
}
