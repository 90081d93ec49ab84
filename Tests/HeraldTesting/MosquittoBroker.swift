import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A real `mosquitto` broker for a test: on a free port of 127.0.0.1 (or, in a network
/// namespace of its own, on port 1883 of every address there), anonymous clients refused,
/// its users with passwords (written with `mosquitto_passwd`), optionally an ACL, nothing
/// persisted.
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
    /// What runs a program where the broker is: `ip netns exec NAME`, or nothing.
    let prefix: [String]
    let configuration: String
    let log: String
    var process: ChildProcess

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// A broker with the user ann and `otherUsers` (name: password); `acl`, the text of its
    /// `acl_file`; `namespace`, the network namespace it runs in.
    package init(otherUsers: [String: String] = [:], acl: String? = nil, namespace: String? = nil, moreConfiguration: String = "") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-broker-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        prefix = namespace.map(NetworkNamespaces.exec) ?? []
        passwordFile = folder.appendingPathComponent("password").path
        try "\(password)\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let users = folder.appendingPathComponent("users").path
        for (index, user) in ([(username, password)] + otherUsers.sorted { $0.key < $1.key }).enumerated() {
            let made = try ChildProcess("/usr/bin/mosquitto_passwd", (index == 0 ? ["-c"] : []) + ["-b", users, user.0, user.1])
                .waitForExit(timeout: 20)
            guard made == 0 else { throw Failure(description: "mosquitto_passwd exited \(String(describing: made))") }
        }
        port = namespace == nil ? try Self.freePort() : 1883
        configuration = folder.appendingPathComponent("mosquitto.conf").path
        var aclLine = ""
        if let acl {
            let aclFile = folder.appendingPathComponent("acl").path
            try acl.write(toFile: aclFile, atomically: true, encoding: .utf8)
            aclLine = "acl_file \(aclFile)"
        }
        // `user root`: run as root (the test's user), mosquitto would otherwise switch to
        // its own user, which cannot read the test's folder.
        try """
            listener \(port)\(namespace == nil ? " 127.0.0.1" : "")
            allow_anonymous false
            password_file \(users)
            \(aclLine)
            persistence false
            user \(String(cString: getpwuid(getuid()).pointee.pw_name))
            \(moreConfiguration)
            """.write(toFile: configuration, atomically: true, encoding: .utf8)
        log = folder.appendingPathComponent("mosquitto.log").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process = try Self.start(prefix: prefix, configuration: configuration, log: log, starts: 1)
    }

    /// A file holding `password`, for a herald-sync of another user or with a wrong one.
    package func passwordFile(holding password: String) throws -> String {
        let path = folder.appendingPathComponent("password-\(UUID().uuidString.prefix(6))").path
        try "\(password)\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Starts mosquitto and waits until its log says it runs for the `starts`th time.
    private static func start(prefix: [String], configuration: String, log: String, starts: Int) throws -> ChildProcess {
        let command = prefix + [Self.broker, "-c", configuration]
        let process = try ChildProcess(command[0], Array(command.dropFirst()), standardError: log)
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
        process = try Self.start(prefix: prefix, configuration: configuration, log: log, starts: starts)
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
        let command = prefix + ["/usr/bin/mosquitto_pub"] + clientArguments + ["-q", "1", "-t", topic, "-m", payload]
        let status = try ChildProcess(command[0], Array(command.dropFirst())).waitForExit(timeout: 20)
        guard status == 0 else { throw Failure(description: "mosquitto_pub exited \(String(describing: status))") }
    }

    /// A port of 127.0.0.1 that nothing listens on now: bound to port 0, read, released.
    package static func freePort() throws -> Int {
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
        let command = broker.prefix + ["/usr/bin/mosquitto_sub"] + broker.clientArguments + ["-v", "-q", "1", "-t", topic]
        process = try ChildProcess(command[0], Array(command.dropFirst()), standardOutput: outputPath)
    }

    deinit {
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 10)
    }

    /// Publishes probes on `herald/probe` until one comes back (at most 20 s): from then on,
    /// every message the broker carries on the topic filter is seen. Whether it came back.
    package func waitUntilSubscribed(_ broker: MosquittoBroker) throws -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while !lines.contains("herald/probe ready"), Date() < deadline {
            try broker.publish("ready", topic: "herald/probe")
            usleep(100_000)
        }
        return lines.contains("herald/probe ready")
    }

    /// Waits up to `timeout` seconds until the messages received hold `line` (the
    /// subscriber is a process of its own, a moment behind whoever published): whether
    /// they do.
    package func waitForLine(_ line: String, timeout: Double = 20) -> Bool {
        waitUntil(timeout: timeout, interval: 0.05) { lines.contains(line) }
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
    /// Where it writes the status `heraldctl sync status` reads.
    package let statusFile: String

    package static var binaryPath: String {
        URL(fileURLWithPath: HeraldProcess.binaryPath).deletingLastPathComponent().appendingPathComponent("herald-sync").path
    }

    /// herald-sync for `account` as host `hostName`, on heraldd's `socket` and `broker`, with
    /// the broker user's password unless `passwordFile` names another.
    /// In network namespace `namespace`, reaching the broker at `brokerHost`; as broker user
    /// `username`; with MQTT keepalive `keepalive` seconds when given.
    package init(
        broker: MosquittoBroker, socket: String, account: String, hostName: String, passwordFile: String? = nil,
        username: String? = nil, namespace: String? = nil, brokerHost: String = "127.0.0.1", keepalive: Int? = nil,
        brokerPort: Int? = nil, moreSettings: String = ""
    ) throws {
        let folder = broker.folder.appendingPathComponent("sync-\(hostName)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = folder.appendingPathComponent("sync.conf").path
        try """
            # herald-sync for the test: the broker's one user, this host's name.
            broker-host = \(brokerHost)
            broker-port = \(brokerPort ?? broker.port)
            username = \(username ?? broker.username)
            password-file = \(passwordFile ?? broker.passwordFile)
            account = \(account)
            host-name = \(hostName)
            \(keepalive.map { "keepalive = \($0)" } ?? "")
            \(moreSettings)
            """.write(toFile: configuration, atomically: true, encoding: .utf8)
        stderrPath = folder.appendingPathComponent("stderr.log").path
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        statusFile = folder.appendingPathComponent("status.json").path
        let command = (namespace.map(NetworkNamespaces.exec) ?? []) + [Self.binaryPath]
        process = try ChildProcess(
            command[0], Array(command.dropFirst()) + ["--config", configuration, "--socket", socket, "--status-file", statusFile],
            standardError: stderrPath)
    }

    deinit {
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 10)
    }

    /// What it logged so far.
    package var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits until its log holds `text` `count` times (at most `timeout` seconds).
    package func waitForLog(containing text: String, count: Int = 1, timeout: Double = 20) -> Bool {
        waitUntil(timeout: timeout) { stderr.components(separatedBy: text).count - 1 >= count }
    }

    /// `heraldctl sync status` on its status file, once `until` holds of its output or after
    /// 20 s: its last run.
    package func status(json: Bool = false, until: (Heraldctl.Run) -> Bool = { _ in true }) throws -> Heraldctl.Run {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let run = try Heraldctl.run(["sync", "status", "--status-file", statusFile] + (json ? ["--json"] : []))
            if until(run) || Date() > deadline { return run }
            usleep(50_000)
        }
    }

    /// SIGTERM, and the exit status (nil if it did not exit within `timeout` seconds).
    package func stop(timeout: Double = 10) -> Int32? {
        process.signal(SIGTERM)
        return process.waitForExit(timeout: timeout)
    }
}
