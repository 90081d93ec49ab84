import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A real `mosquitto` broker for a test: on a free port of 127.0.0.1, anonymous clients
/// refused, one user with a password (written with `mosquitto_passwd`), nothing persisted.
package final class MosquittoBroker: @unchecked Sendable {
    package static let broker = "/usr/sbin/mosquitto"
    package static let tools = [broker, "/usr/bin/mosquitto_passwd", "/usr/bin/mosquitto_sub", "/usr/bin/mosquitto_pub"]
    package static var available: Bool { tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }
    package static let unavailableReason = "needs mosquitto and mosquitto-clients (make deps installs them)"

    package let folder: URL
    package let port: Int
    package let username = "ann"
    package let password = "correct horse"
    /// A file holding ``password``, as herald-sync's `password-file` reads it.
    package let passwordFile: String
    let configuration: String
    let log: String
    var process: ChildProcess

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-broker-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        passwordFile = folder.appendingPathComponent("password").path
        try "\(password)\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let users = folder.appendingPathComponent("users").path
        let made = try ChildProcess("/usr/bin/mosquitto_passwd", ["-c", "-b", users, username, password]).waitForExit(timeout: 20)
        guard made == 0 else { throw Failure(description: "mosquitto_passwd exited \(String(describing: made))") }
        port = try Self.freePort()
        configuration = folder.appendingPathComponent("mosquitto.conf").path
        // `user root`: run as root (the test's user), mosquitto would otherwise switch to
        // its own user, which cannot read the test's folder.
        try """
            listener \(port) 127.0.0.1
            allow_anonymous false
            password_file \(users)
            persistence false
            user \(String(cString: getpwuid(getuid()).pointee.pw_name))
            """.write(toFile: configuration, atomically: true, encoding: .utf8)
        log = folder.appendingPathComponent("mosquitto.log").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process = try Self.start(configuration: configuration, log: log, starts: 1)
    }

    /// Starts mosquitto and waits until its log says it runs for the `starts`th time.
    private static func start(configuration: String, log: String, starts: Int) throws -> ChildProcess {
        let process = try ChildProcess(Self.broker, ["-c", configuration], standardError: log)
        let deadline = Date().addingTimeInterval(20)
        while (((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(separatedBy: "running").count - 1) < starts {
            guard process.isRunning, Date() < deadline else {
                throw Failure(description: "mosquitto did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            usleep(20_000)
        }
        return process
    }

    /// Kills the broker, as a crash or a power cut would; ``start()`` starts it again on the
    /// same port, its retained messages gone (nothing is persisted). SIGKILL, since a child
    /// may inherit a signal mask that blocks SIGTERM.
    package func stop() {
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 20)
    }

    package func start() throws {
        let starts = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(separatedBy: "running").count
        process = try Self.start(configuration: configuration, log: log, starts: starts)
    }

    deinit {
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 10)
        try? FileManager.default.removeItem(at: folder)
    }

    /// The arguments that reach this broker as its user, for mosquitto_sub and mosquitto_pub.
    package var clientArguments: [String] {
        ["-h", "127.0.0.1", "-p", String(port), "-u", username, "-P", password]
    }

    /// Publishes `payload` on `topic` with `mosquitto_pub` (not retained), and waits for it.
    package func publish(_ payload: String, topic: String) throws {
        let status = try ChildProcess("/usr/bin/mosquitto_pub", clientArguments + ["-q", "1", "-t", topic, "-m", payload])
            .waitForExit(timeout: 20)
        guard status == 0 else { throw Failure(description: "mosquitto_pub exited \(String(describing: status))") }
    }

    /// A port of 127.0.0.1 that nothing listens on now: bound to port 0, read, released.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "no free port: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// `mosquitto_sub -v` on a topic filter, writing each message it receives as a line
/// `topic payload` to a file: every message the broker carried there, read back.
package final class MosquittoSubscriber: @unchecked Sendable {
    let process: ChildProcess
    let outputPath: String

    package init(_ broker: MosquittoBroker, topic: String) throws {
        outputPath = broker.folder.appendingPathComponent("sub-\(UUID().uuidString.prefix(8)).log").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        process = try ChildProcess(
            "/usr/bin/mosquitto_sub", broker.clientArguments + ["-v", "-q", "1", "-t", topic], standardOutput: outputPath
        )
    }

    deinit {
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 10)
    }

    /// The messages received so far, one per line.
    package var lines: [String] {
        ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// The real `herald-sync`, built beside heraldd, with a settings file of its own.
package final class HeraldSyncProcess: @unchecked Sendable {
    package let process: ChildProcess
    let stderrPath: String

    package static var binaryPath: String {
        URL(fileURLWithPath: HeraldProcess.binaryPath).deletingLastPathComponent().appendingPathComponent("herald-sync").path
    }

    /// herald-sync for `account` as host `hostName`, on heraldd's `socket` and `broker`.
    package init(broker: MosquittoBroker, socket: String, account: String, hostName: String) throws {
        let folder = broker.folder.appendingPathComponent("sync-\(hostName)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = folder.appendingPathComponent("sync.conf").path
        try """
            # herald-sync for the test: the broker's one user, this host's name.
            broker-host = 127.0.0.1
            broker-port = \(broker.port)
            username = \(broker.username)
            password-file = \(broker.passwordFile)
            account = \(account)
            host-name = \(hostName)
            """.write(toFile: configuration, atomically: true, encoding: .utf8)
        stderrPath = folder.appendingPathComponent("stderr.log").path
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process = try ChildProcess(Self.binaryPath, ["--config", configuration, "--socket", socket], standardError: stderrPath)
    }

    deinit {
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 10)
    }

    /// What it logged so far.
    package var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits until its log holds `text` `count` times (at most `timeout` seconds).
    package func waitForLog(containing text: String, count: Int = 1, timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stderr.components(separatedBy: text).count - 1 >= count { return true }
            usleep(20_000)
        }
        return false
    }

    /// SIGTERM, and the exit status (nil if it did not exit within `timeout` seconds).
    package func stop(timeout: Double = 10) -> Int32? {
        process.signal(SIGTERM)
        return process.waitForExit(timeout: timeout)
    }
}
