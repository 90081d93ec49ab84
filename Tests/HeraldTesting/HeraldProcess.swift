import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The real `heraldd`, started for a test and stopped by it.
///
/// By default it runs as systemd would start it: under `systemd-socket-activate`, which
/// listens on the socket, hands it over as fd 3 named `herald`, and starts `heraldd` on the
/// first connection. Each instance has its own temporary folder, so tests never share
/// a socket and may run in any order, side by side.
package final class HeraldProcess: @unchecked Sendable {
    package enum Launch {
        /// Under `systemd-socket-activate --fdname=herald`.
        case socketActivated
        /// `heraldd --socket PATH`, binding the socket itself.
        case standalone
    }

    package let folder: URL
    package let socketPath: String
    package let process: ChildProcess
    package let stderrPath: String

    /// The heraldd binary: `$HERALDD`, else the one built beside the running test bundle
    /// (so a build in another `--scratch-path` tests its own heraldd), else the debug build
    /// in the package's `.build`.
    package static var binaryPath: String {
        if let path = ProcessInfo.processInfo.environment["HERALDD"], !path.isEmpty { return path }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            // …/debug/heraldPackageTests.xctest, a file on Linux, beside …/debug/heraldd.
            let beside = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("heraldd").path
            if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/heraldd").path
    }

    /// Starts heraldd with `arguments` (besides the socket), and waits until its socket exists.
    /// A `launcher` (standalone only) is a command that execs heraldd in the same process,
    /// such as `nsenter -t PID -m --`: heraldd keeps the pid the test started.
    package init(
        _ launch: Launch = .socketActivated, arguments: [String] = [], environment: [String: String] = [:], launcher: [String] = [],
        socketPath givenSocket: String? = nil
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Another's socket path: a heraldd that comes back where the last one served.
        self.socketPath = givenSocket ?? folder.appendingPathComponent("herald.sock").path
        stderrPath = folder.appendingPathComponent("stderr.log").path
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)

        var env = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "WATCHDOG_USEC", "WATCHDOG_PID"] {
            env.removeValue(forKey: key)
        }
        // Each daemon keeps its snapshots in its own folder unless a test says otherwise.
        var daemonEnvironment = ["STATE_DIRECTORY": folder.appendingPathComponent("state").path]
        for (key, value) in environment { daemonEnvironment[key] = value }
        for (key, value) in daemonEnvironment { env[key] = value }
        switch launch {
        case .socketActivated:
            // systemd-socket-activate starts the daemon with only the LISTEN_* variables and
            // those it is given with --setenv, as systemd would: hand them over explicitly.
            let setenv = daemonEnvironment.sorted { $0.key < $1.key }.map { "--setenv=\($0.key)=\($0.value)" }
            process = try ChildProcess(
                "/usr/bin/systemd-socket-activate",
                ["--listen=\(socketPath)", "--fdname=herald"] + setenv + [Self.binaryPath] + arguments,
                environment: env,
                standardError: stderrPath
            )
        case .standalone:
            let command = launcher + [Self.binaryPath, "--socket", socketPath] + arguments
            process = try ChildProcess(
                command[0],
                Array(command.dropFirst()),
                environment: env,
                standardError: stderrPath
            )
        }

        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard process.isRunning else {
                throw UnixSocketClient.Failure(description: "heraldd exited early: \(stderr)")
            }
            guard Date() < deadline else { throw UnixSocketClient.Failure(description: "no socket at \(socketPath)") }
            usleep(10_000)
        }
    }

    deinit {
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 10)
        try? FileManager.default.removeItem(at: folder)
    }

    /// A new client connection to this daemon.
    package func connect() throws -> UnixSocketClient {
        try UnixSocketClient(path: socketPath)
    }

    /// What heraldd wrote to stderr so far.
    package var stderr: String {
        (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
    }

    /// Waits until heraldd's stderr holds `text` (at most `timeout` seconds): a line it
    /// writes once it serves may come after the first answer, which a socket-activated
    /// heraldd can give before it says where it serves.
    package func waitForLog(containing text: String, timeout: Double = 20) -> Bool {
        waitUntil(timeout: timeout) { stderr.contains(text) }
    }

    /// Sends `signal` and waits (at most `timeout` seconds) for the exit status.
    @discardableResult
    package func stop(signal: Int32 = SIGTERM, timeout: Double = 20) -> Int32? {
        process.signal(signal)
        return waitForExit(timeout: timeout)
    }

    /// The exit status once heraldd has exited by itself, or nil after `timeout` seconds.
    package func waitForExit(timeout: Double) -> Int32? {
        process.waitForExit(timeout: timeout)
    }
}
