import Foundation
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A blocking client of a Unix stream socket, for tests: send bytes, read response lines.
package final class UnixSocketClient {
    package let fd: Int32
    private var buffer: [UInt8] = []

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Connects to `path`, retrying for up to `timeout` seconds while nothing listens there yet.
    package init(path: String, timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
            let result = withUnixAddress(path) { connect(fd, $0, $1) }
            if result == 0 {
                self.fd = fd
                return
            }
            let reason = String(cString: strerror(errno))
            close(fd)
            if Date() > deadline { throw Failure(description: "connect \(path): \(reason)") }
            usleep(20_000)
        }
    }

    /// Takes over a connected socket (made blocking), which it closes when it goes.
    package init(adopting fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        self.fd = fd
    }

    deinit {
        close(fd)
    }

    package func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    package func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Shuts down the write side, as `socat` does at the end of its input.
    package func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// The next line the server sent, without its `\n`; nil when the server closed first.
    package func readLine(timeout: Double = 10) throws -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw Failure(description: "no line within \(timeout) s") }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(remaining * 1000))
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            if count == 0 {
                guard !buffer.isEmpty else { return nil }
                let line = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                return line
            }
            guard count > 0 else {
                if errno == EINTR { continue }
                if errno == ECONNRESET { return nil }
                throw Failure(description: "recv: \(String(cString: strerror(errno)))")
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    /// The next line, parsed as JSON.
    package func readJSON(timeout: Double = 10) throws -> JSONValue? {
        guard let line = try readLine(timeout: timeout) else { return nil }
        return try IndependentJSON.parse(line)
    }

    /// Whether the server closes the connection within `timeout` seconds with nothing more to read.
    package func waitForClose(timeout: Double = 10) throws -> Bool {
        try readLine(timeout: timeout) == nil
    }

    /// Sends one request line and returns the response object.
    @discardableResult
    package func call(_ method: String, _ params: JSONValue? = nil, id: JSONValue = 1) throws -> JSONValue {
        var request: JSONObject = ["jsonrpc": "2.0", "id": id, "method": .string(method)]
        if let params { request["params"] = params }
        try send(JSONValue.object(request).compactText + "\n")
        guard let response = try readJSON() else { throw Failure(description: "connection closed before the response to \(method)") }
        return response
    }
}

extension JSONValue {
    /// The member at a JSON Pointer such as `/error/data/pointer`, or nil.
    package subscript(pointer pointer: String) -> JSONValue? {
        var current: JSONValue? = self
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .object(let object)?: current = object[key]
            case .array(let array)?:
                guard let index = Int(key), array.indices.contains(index) else { return nil }
                current = array[index]
            default: return nil
            }
        }
        return current
    }
}
