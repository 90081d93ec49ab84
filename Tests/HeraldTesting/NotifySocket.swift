import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A datagram socket that plays systemd's side of `sd_notify`: hand its path to a daemon
/// as `NOTIFY_SOCKET`, then read what the daemon reports (`READY=1`, `STATUS=…`).
package final class NotifySocket {
    package let path: String
    private let fd: Int32

    package init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw UnixSocketClient.Failure(description: "socket: \(String(cString: strerror(errno)))") }
        let result = withUnixAddress(path) { bind(fd, $0, $1) }
        guard result == 0 else { throw UnixSocketClient.Failure(description: "bind \(path): \(String(cString: strerror(errno)))") }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Every message received until one contains `line` (as one of its lines), or nil after `timeout` seconds.
    package func waitFor(_ line: String, timeout: Double = 20) -> [String]? {
        waitFor(timeout: timeout) { $0 == line }
    }

    /// The first line received that starts with `prefix` (`STATUS=State not written`), or
    /// nil after `timeout` seconds.
    package func waitFor(lineStartingWith prefix: String, timeout: Double = 20) -> String? {
        let received = waitFor(timeout: timeout) { $0.hasPrefix(prefix) }
        return received?.last?.split(separator: "\n").first { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// Every message received until one has a line that `matches`, or nil after `timeout` seconds.
    private func waitFor(timeout: Double, until matches: (Substring) -> Bool) -> [String]? {
        let deadline = Date().addingTimeInterval(timeout)
        var received: [String] = []
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let message = String(decoding: buffer[..<count], as: UTF8.self)
            received.append(message)
            if message.split(separator: "\n").contains(where: matches) { return received }
        }
    }

    /// Every message received within `seconds`.
    package func messages(within seconds: Double) -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [String] = []
        while case let remaining = deadline.timeIntervalSinceNow, remaining > 0 {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 { received.append(String(decoding: buffer[..<count], as: UTF8.self)) }
        }
        return received
    }
}
