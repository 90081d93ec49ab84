import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A connection to heraldd's Unix socket: JSON-RPC requests out, lines in; what
/// herald-notify and herald-sync speak to heraldd through.
///
/// Nothing waits: requests are queued and written as the socket takes them (the loop
/// polls for writing while ``hasOutput``), lines are read when the loop has seen the
/// descriptor readable. A blocking write could wait forever on a heraldd that waits for
/// its client to read its answers.
package final class DaemonLink {
    package let fd: Int32
    private var buffer: [UInt8] = []
    private var output: [UInt8] = []
    private var outputStart = 0
    /// Past this much queued, a client takes no more work until heraldd has read
    /// (``isCongested``): herald-notify's gateway leaves apps' calls on the bus, whose
    /// limits an app that floods then meets.
    package static let congestionBytes = 256 << 10
    /// The longest line kept while waiting for its end: a summary of many notifications is
    /// large, but not without bound.
    package static let maximumLineBytes = 64 << 20

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    private var nextID = 1

    package init(path: String) throws(Failure) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw Failure(description: "the socket path \(path) is longer than a Unix socket address allows")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: path.utf8.prefix(raw.count - 1)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure(description: "cannot connect to \(path): \(reason)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    package var hasOutput: Bool { outputStart < output.count }
    package var isCongested: Bool { output.count - outputStart > Self.congestionBytes }

    /// Writes what is queued, as far as the socket takes it now.
    package func flushOutput() throws(Failure) {
        while outputStart < output.count {
            let written = output[outputStart...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
            guard written > 0 else { throw Failure(description: "heraldd closed the connection while a request was written") }
            outputStart += written
        }
        if outputStart == output.count {
            output.removeAll(keepingCapacity: output.count <= 1 << 20)
            outputStart = 0
        } else if outputStart > 1 << 20 {
            output.removeFirst(outputStart)
            outputStart = 0
        }
    }

    deinit { close(fd) }

    /// Queues a request and writes what the socket takes; returns its id.
    @discardableResult
    package func request(_ method: String, params: JSONObject) throws(Failure) -> Int {
        let id = nextID
        nextID += 1
        let request = JSONValue.object(
            JSONObject(["jsonrpc": .string("2.0"), "id": .number(JSONNumber(id)), "method": .string(method), "params": .object(params)])
        )
        request.write(to: &output)
        output.append(UInt8(ascii: "\n"))
        try flushOutput()
        return id
    }

    /// The complete lines that arrived, after one read; throws when heraldd closed the connection.
    package func readLines() throws(Failure) -> [ArraySlice<UInt8>] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR || errno == EAGAIN { return [] }
        guard count > 0 else { throw Failure(description: "heraldd closed the connection") }
        buffer.append(contentsOf: chunk[..<count])
        var lines: [ArraySlice<UInt8>] = []
        var start = buffer.startIndex
        while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(ArraySlice(buffer[start..<newline]))
            start = newline + 1
        }
        buffer.removeSubrange(..<start)
        guard buffer.count <= Self.maximumLineBytes else {
            throw Failure(description: "heraldd sent a line longer than \(Self.maximumLineBytes) bytes")
        }
        return lines
    }
}
