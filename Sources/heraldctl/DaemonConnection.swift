import Foundation
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A blocking connection to heraldd's Unix socket: JSON texts out, lines in.
final class DaemonConnection {
    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID = 1

    /// Connects, or fails with a message that says why and what to do (exit status 69).
    init(path: String) throws(CtlFailure) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw CtlFailure(.unavailable, ["heraldctl: cannot create a socket: \(String(cString: strerror(errno)))"]) }
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            close(fd)
            throw CtlFailure(.usage, ["heraldctl: the socket path \(path) is longer than a Unix socket address allows (107 bytes)."])
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: path.utf8.prefix(raw.count - 1)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw Self.unreachable(path: path, errno: error)
        }
    }

    deinit { close(fd) }

    /// What a person needs to know when heraldd cannot be reached at `path`.
    static func unreachable(path: String, errno error: Int32) -> CtlFailure {
        switch error {
        case ENOENT, ECONNREFUSED:
            let what = error == ENOENT ? "there is no socket at \(path)" : "nothing answers on \(path)"
            return CtlFailure(.unavailable, [
                "heraldctl: heraldd is not running there: \(what).",
                "  Start it: systemctl start herald.socket (when installed), or `make run` in Herald's source folder",
                "  (which serves on .run/herald.sock: heraldctl --socket .run/herald.sock, or export HERALD_SOCKET).",
                "  Another socket: --socket PATH or $HERALD_SOCKET.",
            ])
        case EACCES, EPERM:
            return CtlFailure(.unavailable, permissionDenied(path: path))
        default:
            return CtlFailure(.unavailable, ["heraldctl: cannot connect to \(path): \(String(cString: strerror(error)))."])
        }
    }

    /// Names the socket's group (or its folder's, when the folder is what refuses) and how to join it.
    ///
    /// Joining root's group is never the advice: a socket or folder of group root means the
    /// installation is not as herald.socket makes it (root:herald, 0660, in a 0755 folder).
    private static func permissionDenied(path: String) -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        var status = stat()
        let what: String
        if stat(path, &status) == 0 {
            what = "the socket \(path)"
        } else if stat(folder.isEmpty ? "." : folder, &status) == 0 {
            what = "its folder \(folder)"
        } else {
            return [
                "heraldctl: permission denied on \(path), and its folder \(folder) cannot be looked into.",
                "  herald.socket makes the folder 0755 and the socket root:herald 0660; ask an administrator to check: ls -ld \(folder) \(path)",
            ]
        }
        let group = getgrgid(status.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "\(status.st_gid)"
        let mode = String(status.st_mode & 0o777, radix: 8)
        guard status.st_gid != 0 else {
            return [
                "heraldctl: permission denied on \(path): \(what) belongs to group root (mode \(mode)).",
                "  herald.socket makes the socket root:herald 0660; ask an administrator to check: ls -ld \(folder) \(path)",
            ]
        }
        return [
            "heraldctl: permission denied on \(path): \(what) belongs to group \(group) (mode \(mode)), and you are not in it.",
            "  Join the group: sudo usermod -aG \(group) \"$USER\", then log in again (or run: newgrp \(group)).",
        ]
    }

    /// Sends one request and returns its result, throwing the JSON-RPC error as a failure
    /// (exit status 1). Server notifications that arrive first go to `notification`.
    func call(_ method: String, params: JSONValue? = nil, notification: ((JSONValue) -> Void)? = nil) throws(CtlFailure) -> JSONValue {
        let id = nextID
        nextID += 1
        var request: [String: JSONValue] = ["jsonrpc": "2.0", "id": id.json, "method": method.json]
        if let params { request["params"] = params.json }
        try send(.members(request))
        while true {
            let message = try readMessage()
            if message["id"] == nil, message["method"] != nil {
                notification?(message)
                continue
            }
            if let error = message["error"], case .object = error { throw CtlFailure.rpc(method: method, error: error) }
            return message["result"] ?? .null
        }
    }

    func call(_ method: String, params: [String: JSONValue], notification: ((JSONValue) -> Void)? = nil) throws(CtlFailure) -> JSONValue {
        try call(method, params: .members(params), notification: notification)
    }

    func send(_ message: JSONValue) throws(CtlFailure) {
        var bytes: [UInt8] = []
        message.write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw lost("writing") }
            offset += written
        }
    }

    /// The next line from heraldd, parsed: a response or a server notification (an object).
    func readMessage() throws(CtlFailure) -> JSONValue {
        let line = try readLine()
        guard let message = try? JSONParser.parse(line, maxDepth: Self.maximumDepth), case .object = message else {
            throw CtlFailure(.unavailable, ["heraldctl: \(path) answered with something that is not a JSON-RPC object."])
        }
        return message
    }

    /// The deepest nesting heraldctl reads: deeper than any answer heraldd writes (its
    /// requests are bounded by `--max-depth`), as deep as Foundation's reader went.
    static let maximumDepth = 512

    private func readLine() throws(CtlFailure) -> [UInt8] {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw lost("reading") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }

    private func lost(_ doing: String) -> CtlFailure {
        CtlFailure(.unavailable, ["heraldctl: heraldd closed the connection on \(path) while \(doing) (it may be stopping)."])
    }
}
