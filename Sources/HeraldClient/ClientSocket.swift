#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The socket both connections open to heraldd: close-on-exec, so a program the app
/// starts never inherits the connection (nor keeps its subscriptions or Focus hold open).
enum ClientSocket {
    /// A stream socket connected to `path`, blocking; connecting waits at most `timeout`
    /// while heraldd's listen backlog is full (a burst of connections it has not accepted
    /// yet), then fails with EAGAIN.
    static func connected(to path: String, timeout: Duration) throws(HeraldError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw HeraldError(
                kind: .unreachable, message: "cannot connect to \(path): the path is longer than a Unix socket address allows",
                systemErrno: ENAMETOOLONG
            )
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: path.utf8.prefix(raw.count - 1)) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw failure(path, errno) }
        // A Unix socket's connect waits for room in the backlog as long as its send timeout.
        let (seconds, attoseconds) = timeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        if limit.tv_sec == 0, limit.tv_usec == 0 { limit.tv_usec = 1 }
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var result: Int32
        repeat {
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        } while result < 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw failure(path, code)
        }
        var none = timeval()
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    private static func failure(_ path: String, _ code: Int32) -> HeraldError {
        let reason = code == EAGAIN ? "heraldd's listen backlog stayed full" : String(cString: strerror(code))
        return HeraldError(kind: .unreachable, message: "cannot connect to \(path): \(reason)", systemErrno: code)
    }
}
