import FoundationEssentials
import HeraldProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a standalone `heraldd` listens, and getting that path ready to bind.
package enum SocketPath {
    /// The first of ``DefaultSocketPaths``: `$RUNTIME_DIRECTORY/herald.sock`, else
    /// `$XDG_RUNTIME_DIR/herald/herald.sock`, else `/run/herald/herald.sock`.
    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        DefaultSocketPaths.candidates(environment: environment)[0]
    }

    /// Makes `path` ready to bind: creates its folder, and removes a stale socket file left
    /// by a daemon that is gone. Refuses when a live daemon answers there, or when the path
    /// is something other than a socket.
    package static func prepare(_ path: String) throws(ListeningError) {
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw ListeningError("The socket path \(path) is longer than a Unix socket address allows (107 bytes).")
        }
        let folder = PrivateFile.folder(of: path)
        if folder != "." {
            do {
                try PrivateFile.makeFolder(folder, mode: 0o755)
            } catch {
                throw ListeningError("Cannot create the socket's folder \(folder): \(error.description)")
            }
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }  // Nothing there: free to bind.
        guard (status.st_mode & S_IFMT) == S_IFSOCK else {
            throw ListeningError("\(path) exists and is not a socket; Herald will not replace it.")
        }
        if answers(path) {
            throw ListeningError("A daemon already answers on \(path); stop it first or choose another --socket.")
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw ListeningError("Cannot remove the stale socket \(path): \(String(cString: strerror(errno))).")
        }
    }

    /// Applies `--socket-mode` to a bound socket file.
    package static func applyMode(_ mode: mode_t, to path: String) throws(ListeningError) {
        guard chmod(path, mode) == 0 else {
            throw ListeningError("Cannot set mode \(String(mode, radix: 8)) on \(path): \(String(cString: strerror(errno))).")
        }
    }

    /// Whether something accepts connections on the socket at `path`.
    static func answers(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}

/// The server could not listen where it was asked to.
extension SocketPath {
    /// The path a listening Unix socket was bound to (what systemd's socket unit names),
    /// nil for an abstract or unnamed one.
    package static func boundPath(of fd: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let got = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard got == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let path = withUnsafeBytes(of: address.sun_path) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return path.hasPrefix("/") ? path : nil
    }
}

package struct ListeningError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) {
        self.description = description
    }
}
