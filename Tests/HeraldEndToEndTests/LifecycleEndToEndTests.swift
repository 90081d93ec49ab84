import Foundation
import HeraldProtocol
import HeraldTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Starting, listening and stopping, as systemd and a person at a shell see them.
@Suite("Lifecycle, end to end")
struct LifecycleEndToEndTests {
    @Test("SIGTERM stops accepting, answers what was sent, and exits 0")
    func sigterm() throws {
        let herald = try HeraldProcess()
        let client = try herald.connect()
        _ = try client.call("stats")
        #expect(herald.stop(signal: SIGTERM) == 0)
        #expect(try client.waitForClose())
    }

    @Test("SIGINT exits 0 too")
    func sigint() throws {
        let herald = try HeraldProcess(.standalone)
        _ = try herald.connect().call("stats")
        #expect(herald.stop(signal: SIGINT) == 0)
        #expect(!FileManager.default.fileExists(atPath: herald.socketPath))
    }

    /// The flag's earlier name, `--exit-idle-after`, keeps working in administrators' units.
    @Test(
        "--exit-idle-time exits 0 once no client has been connected for that long",
        arguments: ["--exit-idle-time", "--exit-idle-after"])
    func exitIdle(flag: String) throws {
        let herald = try HeraldProcess(arguments: [flag, "1"])
        do {
            let client = try herald.connect()
            _ = try client.call("stats")
        }
        #expect(herald.waitForExit(timeout: 10) == 0)
    }

    @Test("Standalone: binds --socket, applies --socket-mode, and says where it serves")
    func standaloneMode() throws {
        let herald = try HeraldProcess(.standalone, arguments: ["--socket-mode", "0600"])
        _ = try herald.connect().call("stats")
        var status = stat()
        #expect(stat(herald.socketPath, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(herald.waitForLog(containing: "serving on \(herald.socketPath)"), "\(herald.stderr)")
    }

    @Test("A second daemon on a live socket refuses to start with a clear message and a non-zero exit")
    func refusesLiveSocket() throws {
        let herald = try HeraldProcess(.standalone)
        _ = try herald.connect().call("stats")
        let errorsPath = herald.folder.appendingPathComponent("second.stderr").path
        _ = FileManager.default.createFile(atPath: errorsPath, contents: nil)
        let second = try ChildProcess(
            HeraldProcess.binaryPath,
            [
                "--socket", herald.socketPath, "--log-target", "console", "--state-dir",
                herald.folder.appendingPathComponent("second-state").path,
            ],
            standardError: errorsPath
        )
        let status = second.waitForExit(timeout: 20)
        let message = try String(contentsOfFile: errorsPath, encoding: .utf8)
        #expect(status != nil && status != 0)
        #expect(message.contains("already answers on \(herald.socketPath)"))
        _ = try herald.connect().call("stats")
    }

    @Test("A stale socket file left by a killed daemon is replaced")
    func replacesStaleSocket() throws {
        let first = try HeraldProcess(.standalone)
        _ = try first.connect().call("stats")
        first.stop(signal: SIGKILL)
        #expect(FileManager.default.fileExists(atPath: first.socketPath))
        var environment = ProcessInfo.processInfo.environment
        environment["STATE_DIRECTORY"] = first.folder.appendingPathComponent("second-state").path
        let second = try ChildProcess(
            HeraldProcess.binaryPath,
            ["--socket", first.socketPath, "--log-target", "none"],
            environment: environment
        )
        let client = try UnixSocketClient(path: first.socketPath)
        #expect(try client.call("stats")[pointer: "/result"] != nil)
        second.signal(SIGTERM)
        #expect(second.waitForExit(timeout: 20) == 0)
    }

    @Test("rpc.discover serves Protocol/openrpc.json, the same document")
    func discover() throws {
        let herald = try HeraldProcess()
        let served = try #require(try herald.connect().call("rpc.discover")[pointer: "/result"])
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("Protocol/openrpc.json"), encoding: .utf8)
        #expect(served == (try IndependentJSON.parse(file)))
        #expect(served[pointer: "/openrpc"]?.stringValue?.hasPrefix("1.") == true)
    }

    @Test("Socket-activated, it names the socket's path beside its descriptor")
    func activatedNamesThePath() throws {
        let herald = try HeraldProcess()
        _ = try herald.connect().call("stats")
        #expect(herald.waitForLog(containing: "serving on \(herald.socketPath) (socket-activated fd 3)"), "\(herald.stderr)")
    }

    /// Issue 45, item 13: a limit that would make every request fail (or a negative window,
    /// which the parser once took for a flag) is refused at start, naming the flag and its range.
    @Test("A flag out of its range is refused at start with its range and exit status 64", arguments: [
        (["--max-string-bytes", "0"], "--max-string-bytes must be 16 to 1073741824 bytes, not 0."),
        (["--max-batch", "0"], "--max-batch must be 1 to 100000 requests, not 0."),
        (["--read-timeout", "0"], "--read-timeout must be 0.001 to 86400 seconds, not 0."),
        (["--undo-window", "-5"], "--undo-window must be 0 to 86400 seconds, not -5."),
        (["--max-notification-bytes", "100"], "--max-notification-bytes must be 65536 to 1099511627776 bytes, not 100."),
    ])
    func flagOutOfRange(arguments: [String], message: String) throws {
        let (folder, errors) = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let daemon = try ChildProcess(
            HeraldProcess.binaryPath,
            arguments + ["--socket", folder.appendingPathComponent("s").path, "--state-dir", folder.appendingPathComponent("state").path],
            standardError: errors
        )
        #expect(daemon.waitForExit(timeout: 20) == 64)
        let text = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(text.contains(message), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("s").path), "nothing was bound")
    }

    @Test("A socket it cannot bind is named, with the cause")
    func bindFailureNamesThePath() throws {
        let (folder, errors) = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        // /proc takes no socket file, not even root's.
        let daemon = try ChildProcess(
            HeraldProcess.binaryPath, ["--socket", "/proc/herald-test.sock", "--log-target", "console", "--state-dir", folder.appendingPathComponent("state").path],
            standardError: errors
        )
        #expect(daemon.waitForExit(timeout: 20) == 1)
        let text = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(text.contains("Cannot bind the socket /proc/herald-test.sock: "), "\(text)")
        #expect(!text.contains("bind(descriptor:"), "no NIO call in the message: \(text)")
    }

    /// A folder of its own for a daemon started by hand, and its standard error's file.
    private static func scratch() throws -> (folder: URL, errors: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-start-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let errors = folder.appendingPathComponent("stderr").path
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        return (folder, errors)
    }
}
