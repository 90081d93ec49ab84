import Glibc

/// A floor server's Unix stream socket as a plain file descriptor: listen, accept, write all.
///
/// The floor keeps its I/O to blocking POSIX calls, one thread per connection, so that it
/// costs as little as the kernel allows: what any server on this machine could not beat.
struct UnixSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let fd: Int32

    /// Binds and listens on `path`, replacing a stale socket file.
    static func listen(on path: String) throws -> UnixSocket {
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket(): \(errnoText())") }
        let status = withAddress(path) { address, length in bind(fd, address, length) }
        guard status == 0 else { throw Failure(description: "bind(\(path)): \(errnoText())") }
        guard Glibc.listen(fd, 1024) == 0 else { throw Failure(description: "listen(): \(errnoText())") }
        return UnixSocket(fd: fd)
    }

    /// The next connection, or nil when accept fails for a reason other than an interrupt.
    func accept() -> UnixSocket? {
        while true {
            let client = Glibc.accept(fd, nil, nil)
            if client >= 0 { return UnixSocket(fd: client) }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Writes every byte, looping over short writes; false when the peer is gone.
    func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    func writeAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll($0) }
    }

    /// Reads what is there, up to `count` bytes: 0 at end of stream, -1 on failure.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }

    func close() {
        _ = Glibc.close(fd)
    }

    private static func withAddress<R>(
        _ path: String,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
    ) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(capacity - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}

func errnoText() -> String {
    String(cString: strerror(errno))
}
