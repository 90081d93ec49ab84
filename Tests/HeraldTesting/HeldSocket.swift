import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A listening socket held the way systemd holds `herald.socket`: bound and listened on by
/// the test, handed to each `heraldd` it starts as fd 3 (`LISTEN_FDS=1`, `LISTEN_PID` the
/// daemon's own pid, `LISTEN_FDNAMES=herald`), and kept open across the daemon's restarts,
/// so that connections made while no daemon runs wait in the backlog.
package final class HeldSocket: @unchecked Sendable {
    package let folder: URL
    package let socketPath: String
    package let stderrPath: String
    /// The listening socket.
    package let fd: Int32
    private let daemonEnvironment: [String: String]

    /// Binds a socket in a fresh folder and listens on it with `backlog`.
    package init(backlog: Int32 = 4096) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-held-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        socketPath = folder.appendingPathComponent("herald.sock").path
        stderrPath = folder.appendingPathComponent("stderr.log").path
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ChildProcess.Failure(description: "socket: \(String(cString: strerror(errno)))") }
        let path = socketPath
        let bound = withUnixAddress(path) { bind(fd, $0, $1) }
        guard bound == 0, listen(fd, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ChildProcess.Failure(description: "bind/listen \(path): \(reason)")
        }
        self.fd = fd
        var environment = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID"] {
            environment.removeValue(forKey: key)
        }
        environment["STATE_DIRECTORY"] = folder.appendingPathComponent("state").path
        environment["LISTEN_FDS"] = "1"
        environment["LISTEN_FDNAMES"] = "herald"
        daemonEnvironment = environment
    }

    deinit {
        close(fd)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts `heraldd` on the held socket. `LISTEN_PID` must be the daemon's own pid, so
    /// it is started through a shell that sets it to its pid and then execs heraldd.
    package func startDaemon(arguments: [String] = []) throws -> ChildProcess {
        try ChildProcess(
            "/bin/sh",
            ["-c", #"LISTEN_PID=$$ exec "$0" "$@""#, HeraldProcess.binaryPath] + arguments,
            environment: daemonEnvironment,
            standardError: stderrPath,
            inheriting: [3: fd]
        )
    }

    /// A new client connection.
    package func connect() throws -> UnixSocketClient {
        try UnixSocketClient(path: socketPath)
    }

    /// What the daemons started here wrote to stderr so far.
    package var stderr: String {
        (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    }
}

/// Opens `count` connections to `path` with non-blocking `connect()`s, as fast as they
/// go, and returns those that connected at once (a full backlog fails with `EAGAIN`)
/// and the errors of the others.
package func connectBurst(to path: String, count: Int) -> (connected: [Int32], failures: [String]) {
    var connected: [Int32] = []
    var failures: [String] = []
    connected.reserveCapacity(count)
    for _ in 0..<count {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else {
            failures.append("socket: \(String(cString: strerror(errno)))")
            continue
        }
        if withUnixAddress(path, { Glibc.connect(fd, $0, $1) }) == 0 {
            connected.append(fd)
        } else {
            failures.append("connect: \(String(cString: strerror(errno)))")
            close(fd)
        }
    }
    return (connected, failures)
}

/// The resident memory of process `pid` in KiB (`VmRSS` in /proc/PID/status), or nil.
package func residentKiB(of pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    return nil
}

/// The backlog the socket at `path` listens with, as `ss -xl` shows it (Send-Q of a
/// listening socket); nil when no listening socket is bound there.
package func listenBacklog(ofSocketAt path: String) throws -> Int? {
    let output = try runCapturingOutput("/usr/bin/ss", ["-xlH"], input: "")
    for line in output.split(separator: "\n") {
        let columns = line.split(separator: " ", omittingEmptySubsequences: true)
        // Netid State Recv-Q Send-Q Local-Address Port Peer-Address Port
        if columns.count >= 5, columns[4] == path {
            return Int(columns[3])
        }
    }
    return nil
}
